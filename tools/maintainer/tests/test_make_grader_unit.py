#!/usr/bin/env python3
"""Tests of grader/tools/make_grader_unit.py: an exercise file is pasted into its grader's unit
byte for byte (less a leading UTF-8 byte-order mark), and quoted byte for byte in
grader::exercise_source(), whatever its encoding: a BOM or a Latin-1 byte in a comment once
made "does not compile" of a student's correct file.

    test_make_grader_unit.py MAKE_GRADER_UNIT [NVCC ...]

With NVCC, the unit is also compiled and run on the host (no GPU needed): it prints
exercise_source(), which must be the file's bytes.
"""
import os
import subprocess
import sys
import tempfile

script, nvcc = sys.argv[1], sys.argv[2:]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


BODY = b"__global__ void kernel(int* out) { out[0] = 1; }\n"
EXERCISE = (b"\xef\xbb\xbf// Latin-1 in a comment: caf\xe9, 5 \xb5s\n"
            b"// UTF-8 too: caf\xc3\xa9, and bytes no encoding has: \xff\xfe\n" + BODY)
PROBE = (b'#include <cstdio>\n#include <cstring>\n'
         b'namespace grader {\nconst char* exercise_source();\n}\n'
         b'int main() {\n  const char* s = grader::exercise_source();\n'
         b'  std::fwrite(s, 1, std::strlen(s), stdout);\n  return 0;\n}\n')

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
    check(b"\xef\xbb\xbf" not in data, "the BOM is in the unit (after a #line it does not compile)")
    # The quoted copy runs from exercise_source() to the exercise itself, which comes last.
    quoted = data[data.find(b"exercise_source() {"):data.rfind(b"#line 1 ")]
    check(b'"\\xe9"' in quoted and b'"\\xff" "\\xfe"' in quoted and b"\xe9" not in quoted
          and b"caf\xc3\xa9" in quoted,
          f"bytes that are not UTF-8 are not escaped in the quoted copy (only they): {quoted!r}")

    with open(exercise, "wb") as f:
        f.write(b'const char* s = R"x()wb_exercise")x";\n')
    r = subprocess.run([sys.executable, script, unit, exercise, probe], capture_output=True,
                       text=True, timeout=60)
    check(r.returncode != 0 and "ends the raw" in r.stderr,
          f"a file holding the raw string's end is not refused: {r.stderr}")

    if nvcc:
        with open(exercise, "wb") as f:
            f.write(EXERCISE)
        subprocess.run([sys.executable, script, unit, exercise, probe], check=True, timeout=60)
        program = os.path.join(d, "unit")
        r = subprocess.run(nvcc + ["--Werror=all-warnings", "-Xcompiler=-Werror", unit, "-o",
                                   program], capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"the unit does not compile: {r.stdout[-800:]}{r.stderr[-800:]}")
        if r.returncode == 0:
            out = subprocess.run([program], capture_output=True, timeout=60).stdout
            check(out == EXERCISE[3:], f"exercise_source() is not the file's bytes: {out!r}")
    else:
        print("no nvcc given: the unit was not compiled")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
