#!/usr/bin/env python3
"""Writes how long each test of the GPU suite took, from a meson test log, as a measurement file.

    gpu_suite_times.py TESTLOG_JSON GPU_DESCRIPTION > measurements/h200/gpu-suite-seconds.tsv

A test belongs to the GPU suite when meson lists it in suite `gpu` (`meson test --suite gpu`).
Quantities: `seconds.<test name>` for each, `seconds.chapter GPU checks` for the chapters' GPU
checks together, and `seconds.GPU suite` for all of them. tools/run_gpu_suite.sh runs it.
"""
import datetime
import json
import re
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
rows = []
with open(sys.argv[1]) as log:
    for line in log:
        test = json.loads(line)
        # meson writes "suite+gpu - project:name" (1.12) or "project:suite+gpu / name" (1.0).
        full = test["name"]
        if not re.search(r"\+gpu\b", full):
            continue
        name = re.split(r" / |:", full)[-1].strip()
        if test["result"] not in ("OK", "SKIP"):
            sys.exit(f"{name}: {test['result']}; time a green run only")
        rows.append((name, test["duration"]))
if not rows:
    sys.exit(f"{sys.argv[1]}: no test of suite gpu")
chapters = sum(s for name, s in rows if re.fullmatch(r"ch\d\d GPU checks", name))
print("# Written by tools/gpu_suite_times.py from tools/run_gpu_suite.sh; do not edit by hand.")
print(f"# GPU: {sys.argv[2]}")
print(f"# date: {datetime.date.today().isoformat()}")
print("# quantity\tvalue\tunit")
for name, seconds in rows:
    print(f"seconds.{name}\t{seconds:.2f}\ts")
print(f"seconds.chapter GPU checks\t{chapters:.2f}\ts")
print(f"seconds.GPU suite\t{sum(s for _, s in rows):.2f}\ts")
