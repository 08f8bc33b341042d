#!/usr/bin/env python3
"""Tests of meson_testlog.py: both of meson's name formats, suites, counts, and the two scripts
that read a log through it (its student-mode check, gpu_suite_times.py).

    test_meson_testlog.py SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools", "maintainer"))
import meson_testlog  # noqa: E402
from scratch_handout import check, finish  # noqa: E402


check(meson_testlog.parse_name("proj:ch42+host / ch42 host checks") == (["ch42", "host"],
                                                                       "ch42 host checks"),
      "meson 1.0 name format")
check(meson_testlog.parse_name("ch42+gpu - proj:ch42 GPU checks") == (["ch42", "gpu"],
                                                                     "ch42 GPU checks"),
      "meson 1.12 name format")


def log(rows):
    """A test log of (name, result, seconds[, stdout]) rows."""
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    for name, result, seconds, *out in rows:
        f.write(json.dumps({"name": name, "result": result, "duration": seconds,
                            "stdout": "".join(out)}) + "\n")
    f.close()
    return f.name


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(root, "tools", "maintainer", script),
                           *args], capture_output=True, text=True)


student = log([("ch42+host - p:ch42 host checks", "FAIL", 0.1),
               ("ch42+gpu - p:ch42 GPU checks", "SKIP", 0.2),
               ("common+host - p:bank model host checks", "OK", 0.3)])
tests = meson_testlog.read(student)
check([t.chapter for t in tests] == ["ch42", "ch42", None], "chapter of each test")
check(meson_testlog.counts(tests) == (1, 1, 1), "counts: passed, failed, skipped")
refused = meson_testlog.read(log([("points - p:a wrong file is refused", "EXPECTEDFAIL", 0.1)]))
check(meson_testlog.counts(refused) == (1, 0, 0), "a should_fail test that failed has passed")
ran = run("meson_testlog.py", "student-mode", student)
check(ran.returncode == 0 and "2 of 2 chapter checks fail" in ran.stdout,
      f"student mode accepts failing skeletons: {ran.stdout}")
passing = log([("ch42+host - p:ch42 host checks", "OK", 0.1)])
ran = run("meson_testlog.py", "student-mode", passing)
check(ran.returncode == 1 and "BAD" in ran.stdout, "student mode rejects a passing skeleton")

timed = log([("ch42+gpu - p:ch42 GPU checks", "OK", 2.5),
             ("common+gpu - p:counters GPU checks", "OK", 1.0),
             ("ch42+host - p:ch42 host checks", "OK", 0.1)])
ran = run("gpu_suite_times.py", timed, "a GPU")
check(ran.returncode == 0 and "seconds.ch42 GPU checks\t2.50\ts" in ran.stdout
      and "seconds.chapter GPU checks\t2.50\ts" in ran.stdout
      and "seconds.GPU suite\t3.50\ts" in ran.stdout, f"suite times: {ran.stdout}{ran.stderr}")

# A run of some chapters keeps the other tests' times from the earlier file; totals over both.
with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    f.write("# date: 2026-01-02\n# quantity\tvalue\tunit\nseconds.ch41 GPU checks\t4.00\ts\n"
            "seconds.ch42 GPU checks\t9.00\ts\nseconds.GPU suite\t13.00\ts\n")
    earlier = f.name
ran = run("gpu_suite_times.py", timed, "a GPU", "--keep", earlier)
check(ran.returncode == 0 and "seconds.ch41 GPU checks\t4.00\ts" in ran.stdout
      and "seconds.ch42 GPU checks\t2.50\ts" in ran.stdout
      and "seconds.chapter GPU checks\t6.50\ts" in ran.stdout
      and "kept from the run of 2026-01-02: ch41 GPU checks" in ran.stdout,
      f"suite times kept: {ran.stdout}{ran.stderr}")
with open(earlier, "w") as f:
    f.write("not a times file\n")
ran = run("gpu_suite_times.py", timed, "a GPU", "--keep", earlier)
check(ran.returncode != 0 and "not a times file" in ran.stderr, f"bad kept file: {ran.stderr}")
os.unlink(earlier)

# One test's result and the last line of its output (CI prints the browser page's that way).
outputs = log([("tools+browser - p:the page", "OK", 1, "start\n300 cases: all agree\n"),
               ("tools+browser - p:a skipped page", "SKIP", 1, "SKIP: no chromium\n")])
for name, code, printed in (("the page", 0, "OK: 300 cases: all agree"),
                            ("a skipped page", 1, "SKIP: SKIP: no chromium"),
                            ("no such test", 1, "no such test: not in")):
    ran = run("meson_testlog.py", "result", outputs, name)
    check(ran.returncode == code and ran.stdout.startswith(printed),
          f"result of {name!r}: exit {ran.returncode}, {ran.stdout!r}")

for path in (student, passing, timed, outputs):
    os.unlink(path)
finish("meson_testlog.py: all passed")
