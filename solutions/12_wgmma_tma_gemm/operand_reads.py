#!/usr/bin/env python3
"""Counts wgmma's own shared-memory reads in each operand layout, on a Hopper GPU: builds
operand_reads_main.cu (the reference kernel, once per layout, 2048^3), profiles it with Nsight
Compute's gmma counters and writes solutions/12_wgmma_tma_gemm/measurements/<name>-operand-reads.tsv
(the lesson's section 4 quotes it; its checks read that file). Shown, not graded: no layout wgmma
can be given reads with a conflict.

    solutions/12_wgmma_tma_gemm/operand_reads.py [--name h200] [--work DIR]
"""
import argparse
import csv
import datetime
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
LAYOUTS = ["sw128", "sw64", "sw32", "interleave"]  # ch12::kOperandLayouts' order
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"


def number(text: str) -> float:
    return float(text.replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="h200", help="measurement name (default h200)")
    parser.add_argument("--work", help="where to build (default: a temporary folder)")
    args = parser.parse_args()
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="ch12-operand-reads-"))
    work.mkdir(parents=True, exist_ok=True)
    program = work / "operand_reads"
    subprocess.run([nvcc, "-std=c++17", "-O3", "-I", str(ROOT), "-gencode",
                    "arch=compute_90a,code=sm_90a", str(HERE / "operand_reads_main.cu"),
                    str(ROOT / "common/cuda/tma_map.cpp"), "-lcuda", "-o", str(program)],
                   check=True)
    shape = subprocess.run([str(program)], check=True, capture_output=True, text=True).stdout
    n, block_m, block_n, consumers = map(int, shape.split())
    wgmmas = (n // block_m) * (n // block_n) * consumers * (n // 64) * 4
    profile = subprocess.run([ncu, "--csv", "--kernel-name", "regex:wgmma_gemm_kernel",
                              "--metrics", f"{CONFLICTS},{WAVEFRONTS}", str(program)],
                             capture_output=True, text=True)
    if profile.returncode != 0:
        sys.exit(f"operand_reads: ncu failed:\n{profile.stdout[-2000:]}{profile.stderr[-2000:]}")
    text = profile.stdout[profile.stdout.find('"ID"'):]
    values = {}  # launch id -> {metric: value}
    for row in csv.DictReader(io.StringIO(text)):
        values.setdefault(int(row["ID"]), {})[row["Metric Name"]] = number(row["Metric Value"])
    if len(values) != len(LAYOUTS):
        sys.exit(f"operand_reads: ncu profiled {len(values)} launches, not {len(LAYOUTS)}:\n"
                 f"{profile.stdout[-2000:]}")
    lines = []
    for layout, launch in zip(LAYOUTS, sorted(values)):
        conflicts, wavefronts = values[launch][CONFLICTS], values[launch][WAVEFRONTS]
        lines.append(f"gmma.{layout}.bank_conflicts\t{conflicts:g}\t")
        lines.append(f"gmma.{layout}.wavefronts\t{wavefronts:g}\twavefronts")
        lines.append(f"gmma.{layout}.wavefronts_per_wgmma\t{wavefronts / wgmmas:g}\twavefronts")
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip().splitlines()
    out = ROOT / f"solutions/12_wgmma_tma_gemm/measurements/{args.name}-operand-reads.tsv"
    out.write_text("# Written by solutions/12_wgmma_tma_gemm/operand_reads.py; do not edit by hand.\n"
                   f"# GPU: {gpu[0] if gpu else 'unknown'}; the reference kernel at {n}^3, "
                   f"{wgmmas} wgmma ops per launch\n"
                   f"# date: {datetime.date.today().isoformat()}\n"
                   "# quantity\tvalue\tunit\n" + "\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
