#!/usr/bin/env python3
"""Writes how long each test of the GPU suite took, from a meson test log, as a measurement file.

    gpu_suite_times.py TESTLOG_JSON GPU_DESCRIPTION > measurements/h200/gpu-suite-seconds.tsv

A test belongs to the GPU suite when meson lists it in suite `gpu` (`meson test --suite gpu`).
Quantities: `seconds.<test name>` for each, `seconds.chapter GPU checks` for the chapters' GPU
checks together, `seconds.GPU suite` for all of them, and `seconds.student GPU suite` for what a
student's `meson test --suite gpu` runs: all of them but the reference checks, which only a
solution build has. tools/maintainer/run_gpu_suite.sh runs it.
"""
import datetime
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meson_testlog  # noqa: E402

if len(sys.argv) != 3:
    sys.exit(__doc__)
rows = []
for test in meson_testlog.read(sys.argv[1]):
    if not test.in_suite("gpu"):
        continue
    if test.result not in ("OK", "SKIP"):
        sys.exit(f"{test.name}: {test.result}; time a green run only")
    rows.append((test.name, test.duration))
if not rows:
    sys.exit(f"{sys.argv[1]}: no test of suite gpu")
chapters = sum(s for name, s in rows if re.fullmatch(r"ch\d\d GPU checks", name))
print("# Written by tools/maintainer/gpu_suite_times.py from run_gpu_suite.sh; do not edit by hand.")
print(f"# GPU: {sys.argv[2]}")
print(f"# date: {datetime.date.today().isoformat()}")
print("# quantity\tvalue\tunit")
for name, seconds in rows:
    print(f"seconds.{name}\t{seconds:.2f}\ts")
print(f"seconds.chapter GPU checks\t{chapters:.2f}\ts")
print(f"seconds.GPU suite\t{sum(s for _, s in rows):.2f}\ts")
student = sum(s for name, s in rows if not name.endswith(" reference checks"))
print(f"seconds.student GPU suite\t{student:.2f}\ts")
