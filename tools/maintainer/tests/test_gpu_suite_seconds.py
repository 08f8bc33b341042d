#!/usr/bin/env python3
"""Host test: the committed H200 GPU suite, every chapter included, took under a minute: what a
student's `meson test --suite gpu` runs (the reference checks, which only a solution build has,
left out; the whole solution-mode suite's time is printed beside it).

    test_gpu_suite_seconds.py SOURCE_ROOT

tools/maintainer/run_gpu_suite.sh writes tools/maintainer/measurements/h200/gpu-suite-seconds.tsv
from the run's test log. A chapter added since the last H200 run (it has no committed
solutions/NN_slug/measurements/h200.tsv either) has no row yet: this says so and passes; any
other chapter without a row fails until the suite is run on the H200 and committed again.
"""
import os
import re
import sys

root = sys.argv[1]
path = os.path.join(root, "tools", "maintainer", "measurements", "h200", "gpu-suite-seconds.tsv")
seconds = {}
for line in open(path, encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        name, value = line.split("\t")[:2]
        seconds[name] = float(value)
problems = []
for chapter in sorted(os.listdir(os.path.join(root, "chapters"))):
    if not re.fullmatch(r"\d\d_[a-z0-9_]+", chapter):
        continue
    if not os.path.isfile(os.path.join(root, "solutions", chapter, "measurements", "h200.tsv")):
        print(f"ch{chapter[:2]} awaits its first H200 run: its GPU checks have no time yet "
              f"(tools/maintainer/run_gpu_suite.sh writes it)")
        continue
    if f"seconds.ch{chapter[:2]} GPU checks" not in seconds:
        problems.append(f"ch{chapter[:2]} has no time in {path}: run "
                        f"tools/maintainer/run_gpu_suite.sh on the H200 and commit its files")
total = seconds.get("seconds.student GPU suite")
if total is None or total >= 60:
    problems.append(f"a student's GPU suite took {total} s on the H200; it must take under 60")
for p in problems:
    print(p)
print(f"a student's GPU suite on the H200: {total} s (the solution build's, reference checks "
      f"included: {seconds.get('seconds.GPU suite')} s), {len(seconds) - 2} timed tests")
sys.exit(1 if problems else 0)
