#!/usr/bin/env python3
"""Times what an instructor waits for when grading a class on this machine, host checks only:
the workbook at a commit (default HEAD) checked out fresh, and its own tools/instructor/grade run
as the README says.

- the pristine workbook's build (once per class), every chapter;
- one submission of every chapter, each exercise done (the reference solutions, each file
  edited as a student's would be), graded --repeats times (default 3): the seconds of its build and of its
  checks, and of the whole submission (the median);
- a class of --class-size submissions graded in one run (--build-jobs 2, the default): its wall
  time from the pristine workbook ready to the last result, and the seconds per submission.
  The class is made here, the same for every commit: for each student and chapter, seven times
  in ten the reference (with the student's own comment, so that no two files are the same), twice
  the untouched skeleton, once the skeleton with a comment (an exercise started, not done).

Writes tools/maintainer/measurements/<name>/class-grading[-<label>].tsv. Run it alone on the
machine: it times builds. Not a test: nothing in the suite times the grading.

    tools/maintainer/bench_class_grading.py [--name 2cores-nogpu] [--commit REV --label before]
                                            [--class-size 200] [--repeats 3] [--keep DIR]

A commit from before the pristine workbook (each submission built from scratch, some 400 s on 2
cores) is measured in reasonable time with --repeats 1 --class-size 2.
"""
import argparse
import hashlib
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time

from scratch_handout import checkout, fresh_folder, write_measurements

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A fresh checkout's times: a ccache filled by earlier builds would hide the compiler's.
os.environ["CCACHE_DISABLE"] = "1"


def chapters_of(tree):
    return sorted(p.name for p in (tree / "chapters").iterdir()
                  if (tree / "grader" / p.name / "chapter.ini").is_file())


def exercise(tree, folder, chapter):
    return (tree / folder / chapter / f"{chapter[3:]}_exercise.cu").read_bytes()


def write_submission(tree, target, chapters, student, solved_only=False):
    """A student's hand-out tree of exercise files (see the module's docstring)."""
    for chapter in chapters:
        pick = int(hashlib.sha256(f"{student} {chapter}".encode()).hexdigest(), 16) % 10
        comment = f"\n// {student}'s work on {chapter}\n".encode()
        if solved_only or pick < 7:
            data = exercise(tree, "solutions", chapter) + comment
        elif pick < 9:
            data = exercise(tree, "chapters", chapter)
        else:
            data = exercise(tree, "chapters", chapter) + comment
        path = target / "workbook" / "chapters" / chapter / f"{chapter[3:]}_exercise.cu"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def grade(tree, folder, out, log):
    start = time.monotonic()
    with open(log, "a") as f:
        run = subprocess.run([sys.executable, str(tree / "tools/instructor/grade"), "--class",
                              str(folder), "--out", str(out)], stdout=f, stderr=subprocess.STDOUT)
    if run.returncode != 0:
        sys.exit(f"grading {folder} failed (status {run.returncode}); see {log}")
    return time.monotonic() - start


def results(out):
    found = {}
    for result in sorted((out / "submissions").glob("*/result.json")):
        found[result.parent.name] = json.loads(result.read_text())
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="2cores-nogpu")
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--label", help="the file's suffix (class-grading-LABEL.tsv)")
    parser.add_argument("--class-size", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3,
                        help="how many times the submission of every chapter is graded")
    parser.add_argument("--keep", help="work here (default: a temporary folder)")
    args = parser.parse_args()
    if args.class_size < 1:
        parser.error("--class-size must be at least 1")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    work = fresh_folder(args.keep, "class-grading-")
    tree = work / "workbook"
    commit = checkout(ROOT, args.commit, tree)
    chapters = chapters_of(tree)
    log = work / "grade.log"
    out = work / "grades"
    rows = []

    # The pristine workbook and one whole submission, --repeats times (its result removed between).
    one = work / "one"
    write_submission(tree, one / "everything", chapters, "everything", solved_only=True)
    first = grade(tree, one, out, log)
    pristine = re.search(r"pristine workbook is ready after (\d+) s", log.read_text())
    rows.append(("pristine.build_seconds", float(pristine.group(1)) if pristine else first, "s"))
    builds, checks, totals = [], [], []
    for attempt in range(args.repeats):
        if attempt:
            shutil.rmtree(out / "submissions" / "everything")
            grade(tree, one, out, log)
        result = results(out)["everything"]
        if result["score"] != result["max_score"]:
            sys.exit(f"the reference scored {result['score']} of {result['max_score']}; see {log}")
        builds.append(result["build_seconds"])
        checks.append(result["run_seconds"])
        totals.append(result["build_seconds"] + result["run_seconds"])
    rows.append(("submission.chapters", len(chapters), "chapters"))
    rows.append(("submission.repeats", args.repeats, "runs"))
    rows.append(("submission.build_seconds", statistics.median(builds), "s"))
    rows.append(("submission.check_seconds", statistics.median(checks), "s"))
    rows.append(("submission.total_seconds", statistics.median(totals), "s"))

    # A class, graded in one run.
    klass = work / "class"
    for i in range(args.class_size):
        write_submission(tree, klass / f"s{i + 1:03d}", chapters, f"s{i + 1:03d}")
    wall = grade(tree, klass, out, log)
    graded = results(out)
    graded.pop("everything", None)
    if len(graded) != args.class_size:
        sys.exit(f"{len(graded)} of {args.class_size} submissions were graded; see {log}")
    rows.append(("class.size", args.class_size, "submissions"))
    rows.append(("class.wall_seconds", wall, "s"))
    rows.append(("class.seconds_per_submission", wall / args.class_size, "s"))
    rows.append(("class.median_build_seconds",
                 statistics.median(r["build_seconds"] for r in graded.values()), "s"))
    rows.append(("class.median_check_seconds",
                 statistics.median(r["run_seconds"] for r in graded.values()), "s"))
    rows.append(("class.for_200_submissions_seconds", wall / args.class_size * 200, "s"))

    name = "class-grading" + (f"-{args.label}" if args.label else "") + ".tsv"
    write_measurements(ROOT / "tools/maintainer/measurements" / args.name / name,
                       "bench_class_grading.py",
                       ["no GPU (host checks)", f"workbook: {commit[:12]} ({len(chapters)} "
                        f"chapters); date: {{date}}", "for_200_submissions is "
                        "class.seconds_per_submission x 200 where the class was smaller"], rows)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
