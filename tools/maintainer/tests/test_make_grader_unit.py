#!/usr/bin/env python3
"""Tests of grader/tools/make_grader_unit.py: an exercise file is pasted into its grader's unit
byte for byte (less a leading UTF-8 byte-order mark), whatever its encoding: a BOM or a Latin-1
byte in a comment once made "does not compile" of a student's correct file; and a probe that
launches the interface's kernel with <<<...>>> is refused.

    test_make_grader_unit.py MAKE_GRADER_UNIT [NVCC ...]

With NVCC, the unit is also compiled and run on the host (no GPU needed): the exercise's own
code runs, after the probe's.
"""
import os
import subprocess
import sys
import tempfile

script, nvcc = sys.argv[1], sys.argv[2:]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check, finish  # noqa: E402


BODY = b"int exercise_answer() { return 42; }\n"
EXERCISE = (b"\xef\xbb\xbf// Latin-1 in a comment: caf\xe9, 5 \xb5s\n"
            b"// UTF-8 too: caf\xc3\xa9, and bytes no encoding has: \xff\xfe\n" + BODY)
PROBE = (b'#include <cstdio>\nint exercise_answer();\n'
         b'int main() {\n  std::printf("%d\\n", exercise_answer());\n  return 0;\n}\n')

with tempfile.TemporaryDirectory() as d:
    exercise, probe, unit = (os.path.join(d, n) for n in ("x_exercise.cu", "probe.cu", "unit.cu"))
    with open(exercise, "wb") as f:
        f.write(EXERCISE)
    with open(probe, "wb") as f:
        f.write(PROBE)
    r = subprocess.run([sys.executable, script, unit, exercise, probe], capture_output=True,
                       timeout=60)
    check(r.returncode == 0, f"make_grader_unit.py failed on a BOM and Latin-1: {r.stderr[-400:]}")
    data = open(unit, "rb").read() if r.returncode == 0 else b""
    pasted = f'#line 1 "{exercise}"\n'.encode() + EXERCISE[3:]
    check(pasted in data, "the exercise file is not pasted byte for byte, less its BOM")
    check(data.endswith(pasted), "the exercise file is not the unit's last part")
    check(b"\xef\xbb\xbf" not in data, "the BOM is in the unit (after a #line it does not compile)")
    check(b"exercise_source" not in data, "the unit quotes the exercise's text for the grader")

    if nvcc:
        program = os.path.join(d, "unit")
        r = subprocess.run(nvcc + ["--Werror=all-warnings", "-Xcompiler=-Werror", unit, "-o",
                                   program], capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"the unit does not compile: {r.stdout[-800:]}{r.stderr[-800:]}")
        if r.returncode == 0:
            out = subprocess.run([program], capture_output=True, timeout=60).stdout
            check(out == b"42\n", f"the exercise's code did not run: {out!r}")
    else:
        print("no nvcc given: the unit was not compiled")

    # A probe that launches a kernel of the interface it includes with <<<>>> is refused (in a
    # judge it would launch the stand-in); its own kernels, and gpu::launch, are not.
    with open(os.path.join(d, "x.cuh"), "w") as f:
        f.write("__global__ void x_kernel(int* out);\n")
    for body, refused in (("x_kernel<<<1, 32>>>(out);", True),
                          ("x_kernel<float> <<<1, 32>>>(out);", True),
                          ("gpu::launch(x_kernel, 1, 32, 0, out);", False),
                          ("own_kernel<<<1, 32>>>(out);", False)):
        with open(probe, "w") as f:
            f.write(f'#include "x.cuh"\n__global__ void own_kernel(int*) {{}}\n'
                    f'void probe(int* out) {{\n  {body}\n}}\n')
        r = subprocess.run([sys.executable, script, unit, exercise, probe], capture_output=True,
                           text=True, timeout=60)
        said = f"{probe}:4: the probe launches the interface's kernel x_kernel" in r.stderr
        check((r.returncode != 0 and said) if refused else r.returncode == 0,
              f"{body!r}: exit {r.returncode}, {r.stderr[-300:]!r}")

finish("make_grader_unit.py: every file pasted as it is, every bad probe refused")
