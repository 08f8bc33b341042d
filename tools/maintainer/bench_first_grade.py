#!/usr/bin/env python3
"""Times what a student waits for, on this machine: the self-study hand-out of the committed
workbook, unpacked fresh, and the README's commands run on it.

- `meson setup build` and the first chapter's `meson test -C build --suite chNN` (nothing
  built yet: the README's first grade);
- for every chapter (or those --chapters names), once its grader is built: its exercise file
  touched (an edit) and `meson test -C build --suite chNN` again;
- in a second fresh build folder, `meson setup` and `meson test --suite host` (every chapter's
  host checks, from nothing), and how many lines that prints.

Writes tools/maintainer/measurements/<name>/first-grade.tsv (medians of --repeats runs for the
edit-and-rerun). Run it alone on the machine: it times builds. Not a test: nothing in the
suite times the build. With --commit REV (and --label L, the file's suffix:
first-grade-L.tsv), the hand-out is that commit's, made by its own make_handout.py: a before
and an after measured on one machine on one day.

    tools/maintainer/bench_first_grade.py [--name 2cores-nogpu] [--repeats 3] [--chapters chNN,chMM]
                                          [--keep DIR] [--commit REV --label before]
"""
import argparse
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time

from scratch_handout import (checkout, commit_of, fresh_folder, unpacked_handout,
                             write_measurements)

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A fresh checkout's times: a ccache filled by earlier builds would hide the compiler's.
os.environ["CCACHE_DISABLE"] = "1"


def timed(command, cwd):
    start = time.monotonic()
    run = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    return time.monotonic() - start, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="2cores-nogpu")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chapters", help="the chapters to time an edit of (default: all)")
    parser.add_argument("--keep", help="unpack and build here (default: a temporary folder)")
    parser.add_argument("--commit", help="time the hand-out of this commit (default: HEAD)")
    parser.add_argument("--label", help="the file's suffix (first-grade-LABEL.tsv)")
    args = parser.parse_args()
    if args.commit and not args.label:
        parser.error("--commit needs --label: the measurement of another commit is not HEAD's")
    work = fresh_folder(args.keep, "first-grade-")
    source = ROOT
    if args.commit:  # that commit's own checkout, whose make_handout.py writes its hand-out
        source = work / "checkout"
        checkout(ROOT, args.commit, source)
    book = unpacked_handout(source, work)
    rows = []

    setup, run = timed(["meson", "setup", "build"], book)
    if run.returncode != 0:
        sys.exit("meson setup failed:\n" + run.stdout[-3000:] + run.stderr[-3000:])
    targets = next((l.split(":", 1)[1].strip() for l in run.stdout.splitlines()
                    if "GPU targets" in l), "?")
    chapters = sorted(p.name for p in (book / "chapters").iterdir() if p.is_dir()
                      and p.name[:2].isdigit())
    first, run = timed(["meson", "test", "-C", "build", "--suite", "ch" + chapters[0][:2]], book)
    if "Fail:" not in run.stdout:
        sys.exit("the first meson test did not run:\n" + run.stdout[-3000:] + run.stderr[-3000:])
    rows.append(("first.setup_seconds", setup, "s"))
    rows.append(("first.chapter_test_seconds", first, "s"))
    rows.append(("first.total_seconds", setup + first, "s"))

    if args.chapters:
        chapters = [c for c in chapters if "ch" + c[:2] in args.chapters.split(",")]
    for chapter in chapters:
        suite = "ch" + chapter[:2]
        exercise = next((book / "chapters" / chapter).glob("*_exercise.cu"))
        timed(["meson", "test", "-C", "build", "--suite", suite], book)  # build it once
        times = []
        for _ in range(args.repeats):
            os.utime(exercise)  # an edit: the file is newer than what was built from it
            seconds, run = timed(["meson", "test", "-C", "build", "--suite", suite], book)
            if "Fail:" not in run.stdout:
                sys.exit(f"{suite}: meson test did not run:\n" + run.stdout[-3000:])
            times.append(seconds)
        rows.append((f"rerun.{suite}_seconds", statistics.median(times), "s"))
    worst = max(v for k, v, _ in rows if k.startswith("rerun."))
    rows.append(("rerun.worst_seconds", worst, "s"))

    setup, run = timed(["meson", "setup", "build-host"], book)
    seconds, run = timed(["meson", "test", "-C", "build-host", "--suite", "host"], book)
    rows.append(("host_suite.from_nothing_seconds", setup + seconds, "s"))
    rows.append(("host_suite.lines", len(run.stdout.splitlines()), "lines"))
    rows.append(("host_suite.tests", sum(1 for l in run.stdout.splitlines()
                                         if re.search(r"^ *\d+/\d+ .* (OK|FAIL|SKIP) ", l)),
                 "tests"))

    name = "first-grade" + (f"-{args.label}" if args.label else "") + ".tsv"
    write_measurements(ROOT / "tools/maintainer/measurements" / args.name / name,
                       "bench_first_grade.py", [f"GPU targets {targets}", f"workbook: "
                                                f"{commit_of(source)[:12]}; date: {{date}}"], rows)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
