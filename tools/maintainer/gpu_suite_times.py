#!/usr/bin/env python3
"""Writes how long each test of the GPU suite took, from a meson test log, as a measurement file;
and checks the committed file.

    gpu_suite_times.py TESTLOG_JSON GPU_DESCRIPTION [--keep EARLIER_FILE] > gpu-suite-seconds.tsv
    gpu_suite_times.py --check SOURCE_ROOT

A test belongs to the GPU suite when meson lists it in suite `gpu` (`meson test --suite gpu`).
Quantities: `seconds.<test name>` for each, `seconds.chapter GPU checks` for the chapters' GPU
checks together, `seconds.GPU suite` for all of them, and `seconds.student GPU suite` for what a
student's `meson test --suite gpu` runs: all of them but the reference checks, which only a
solution build has. tools/maintainer/run_gpu_suite.sh runs it. With `--keep EARLIER_FILE` (a run
of some chapters only) the tests this run did not run keep their times from the earlier file,
and the header says so; the totals are over both.

`--check` holds the committed H200 file (tools/maintainer/measurements/h200/gpu-suite-seconds.tsv)
to a minute for what a student's `meson test --suite gpu` runs, and to a row for every chapter's
GPU checks. A chapter added since the last H200 run (it has no committed
solutions/NN_slug/measurements/h200.tsv either) has no row yet: this says so and passes.
"""
import datetime
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "grader", "tools")]
import manifest  # noqa: E402
import manifest_views  # noqa: E402
import meson_testlog  # noqa: E402


def check(root):
    path = os.path.join(root, "tools", "maintainer", "measurements", "h200",
                        "gpu-suite-seconds.tsv")
    seconds = manifest_views.measurements(path)
    problems = []
    for chapter in manifest.chapters(root):
        if not os.path.isfile(os.path.join(root, "solutions", chapter, "measurements",
                                           "h200.tsv")):
            print(f"ch{chapter[:2]} awaits its first H200 run: its GPU checks have no time yet "
                  f"(tools/maintainer/run_gpu_suite.sh writes it)")
        elif f"seconds.ch{chapter[:2]} GPU checks" not in seconds:
            problems.append(f"ch{chapter[:2]} has no time in {path}: run "
                            f"tools/maintainer/run_gpu_suite.sh on the H200 and commit its files")
    total = seconds.get("seconds.student GPU suite")
    if total is None or total >= 60:
        problems.append(f"a student's GPU suite took {total} s on the H200; it must take under 60")
    for p in problems:
        print(p)
    print(f"a student's GPU suite on the H200: {total} s (the solution build's, reference checks "
          f"included: {seconds.get('seconds.GPU suite')} s), {len(seconds) - 2} timed tests")
    return 1 if problems else 0


if len(sys.argv) == 3 and sys.argv[1] == "--check":
    sys.exit(check(sys.argv[2]))
if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--keep"):
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
kept = []
if len(sys.argv) == 5:
    ran = {name for name, _ in rows}
    try:
        earlier = open(sys.argv[4], encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"--keep {sys.argv[4]}: {e.strerror}")
    earlier_date = next((line[len("# date: "):] for line in earlier if line.startswith("# date: ")),
                        "an unknown date")
    totals = ("chapter GPU checks", "GPU suite", "student GPU suite")
    for line in earlier:
        if line.startswith("#") or not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) < 2 or not cells[0].startswith("seconds."):
            sys.exit(f"--keep {sys.argv[4]}: not a times file: {line!r}")
        name = cells[0][len("seconds."):]
        if name not in ran and name not in totals:
            kept.append((name, float(cells[1])))
    rows = kept + rows
chapters = sum(s for name, s in rows if re.fullmatch(r"ch\d\d GPU checks", name))
print("# Written by tools/maintainer/gpu_suite_times.py from run_gpu_suite.sh; do not edit by hand.")
print(f"# GPU: {sys.argv[2]}")
print(f"# date: {datetime.date.today().isoformat()}")
if kept:
    print(f"# not run this time, kept from the run of {earlier_date}: "
          + ", ".join(name for name, _ in kept))
print("# quantity\tvalue\tunit")
for name, seconds in rows:
    print(f"seconds.{name}\t{seconds:.2f}\ts")
print(f"seconds.chapter GPU checks\t{chapters:.2f}\ts")
print(f"seconds.GPU suite\t{sum(s for _, s in rows):.2f}\ts")
student = sum(s for name, s in rows if not name.endswith(" reference checks"))
print(f"seconds.student GPU suite\t{student:.2f}\ts")
