#!/usr/bin/env python3
"""Measures the two design choices chapter 12's kernel is given, on a Hopper GPU:

- runtime_ring: the ring's length read at run time (from constant memory, as a kernel argument
  would be) instead of the template parameter Stages;
- row_order: blocks numbered along a row of N-tiles after another instead of block_tile's
  groups of kTileGroup M-tiles.

Each variant is the reference solution's own source with one text change, compiled in its own
namespace (-Dch12=ch12_<variant>) and linked with design_choices_bench_main.cu, which times them in
turns and writes the ratios to solutions/12_wgmma_tma_gemm/measurements/<name>-design-choices.tsv
(the lesson's section 3 quotes them; its checks read that file).

    solutions/12_wgmma_tma_gemm/design_choices_bench.py [--name h200] [--work DIR]
"""
import argparse
import datetime
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "solutions/12_wgmma_tma_gemm/wgmma_tma_gemm_exercise.cu"
HERE = pathlib.Path(__file__).resolve().parent

LAUNCHER = """
namespace ch12 {
void launch_variant(const CUtensorMap& a, const CUtensorMap& b, float* C, int M, int N, int K) {
  static const cudaError_t set = cudaFuncSetAttribute(
      wgmma_gemm_kernel<OperandLayout::k128B, kStages>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  (void)set;
  wgmma_gemm_kernel<OperandLayout::k128B, kStages>
      <<<(M / kBlockM) * (N / kBlockN), kThreads, kSharedBytes>>>(a, b, C, M, N, K);
}
}  // namespace ch12
"""

# variant: [(text of the reference, its replacement)], each text found exactly once.
VARIANTS = {
    "reference": [],
    "runtime_ring": [
        ("template <OperandLayout Layout, int Stages>\n__global__",
         "template <OperandLayout Layout, int StagesAtCompileTime>\n__global__"),
        ('static_assert(Stages >= 2 && Stages <= kStages, "a ring of 2 .. kStages stages");',
         "const int Stages = ring_at_run_time;"),
    ],
    "row_order": [
        ("block_tile(static_cast<int>(blockIdx.x), M, N)",
         "BlockTile{static_cast<int>(blockIdx.x) / (N / kBlockN) * kBlockM,"
         " static_cast<int>(blockIdx.x) % (N / kBlockN) * kBlockN}"),
    ],
}
PRELUDE = {"runtime_ring": "__constant__ int ring_at_run_time = 4;\n"}


def variant_source(name: str) -> str:
    text = SOLUTION.read_text()
    for old, new in VARIANTS[name]:
        if text.count(old) != 1:
            sys.exit(f"design_choices_bench: {SOLUTION.relative_to(ROOT)} holds {text.count(old)} "
                     f"copies of the text variant {name} changes (want 1): {old!r}")
        text = text.replace(old, new)
    return PRELUDE.get(name, "") + text + LAUNCHER


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="h200", help="measurement name (default h200)")
    parser.add_argument("--work", help="where to build (default: a temporary folder)")
    args = parser.parse_args()
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="ch12-design-"))
    work.mkdir(parents=True, exist_ok=True)
    flags = ["-std=c++17", "-O3", "-I", str(ROOT), "-gencode", "arch=compute_90a,code=sm_90a"]
    objects = []
    for name in VARIANTS:
        source = work / f"{name}.cu"
        source.write_text(variant_source(name))
        objects.append(work / f"{name}.o")
        subprocess.run([nvcc, *flags, f"-Dch12=ch12_{name}", "-c", str(source), "-o",
                        str(objects[-1])], check=True)
    program = work / "design_choices_bench"
    subprocess.run([nvcc, *flags, str(HERE / "design_choices_bench_main.cu"),
                    str(ROOT / "common/cuda/tma_map.cpp"), *map(str, objects), "-lcuda", "-o",
                    str(program)], check=True)
    out = ROOT / f"solutions/12_wgmma_tma_gemm/measurements/{args.name}-design-choices.tsv"
    subprocess.run([str(program), str(out)], check=True)
    text = out.read_text().splitlines(keepends=True)
    text.insert(2, f"# date: {datetime.date.today().isoformat()}\n")
    out.write_text("".join(text))
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
