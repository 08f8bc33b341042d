#!/usr/bin/env python3
"""Grades a class of three with the GPU checks on this machine, as an instructor would, and
records how long it took. The class: `reference` (the reference solutions, as a hand-out tree),
`skeleton` (the untouched skeletons, as a .tar.gz) and `mix` (every other chapter solved, as a
.zip). The reference must score full marks, the skeleton zero, and the mix exactly the points of
its solved chapters; every output format must be there. Fails (status 1) otherwise.

Every command of a submission runs in the grading sandbox (tools/instructor/grading/sandbox.py),
the pristine workbook is built once and each submission rebuilds only its own units. Writes the
grades under OUT/grades/ and the timings (the pristine build, build and checks per submission,
the whole class) to OUT/class-grading-seconds.tsv and
tools/maintainer/measurements/NAME/class-grading-seconds.tsv. The class is graded as official
grading grades it, hidden checks included.

    tools/instructor/run_gpu_grading.py OUT [NAME] [--gpu-targets 90] [--build-jobs 2] [--keep-work]
                             [--chapters 01_x,02_y]   (default: every chapter)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import sample_class, scoring  # noqa: E402


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("out")
    parser.add_argument("name", nargs="?", default="h200")
    parser.add_argument("--gpu-targets", default="90")
    parser.add_argument("--build-jobs", type=int, default=2)
    parser.add_argument("--keep-work", action="store_true")
    parser.add_argument("--chapters")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True)
    changed.stdout = "".join(line + "\n" for line in changed.stdout.splitlines()  # what a GPU
                             if "/measurements/" not in line)  # run measured: no grading reads it
    if changed.returncode != 0 or changed.stdout.strip():
        sys.exit("run_gpu_grading.py: tools/instructor/grade grades the committed HEAD, but the tracked "
                 "files differ from it (or this is not a git checkout); commit first:\n"
                 + changed.stdout + changed.stderr)
    chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                      if os.path.isfile(os.path.join(root, "grader", d, "chapter.ini")))
    if args.chapters:
        unknown = sorted(set(args.chapters.split(",")) - set(chapters))
        if unknown:
            parser.error(f"--chapters: no such chapter: {', '.join(unknown)}")
        chapters = sorted(set(args.chapters.split(",")))
    folder, grades = os.path.join(out, "class"), os.path.join(out, "grades")
    for old in (folder, grades):  # a fresh class and fresh grades: this measures a whole run
        shutil.rmtree(old, ignore_errors=True)
    os.makedirs(folder)
    expected, maximum = sample_class.write(root, folder, chapters, ["host", "gpu"])
    solved_in_mix = chapters[::2]

    command = [sys.executable, os.path.join(root, "tools", "instructor", "grade"), "--class",
               folder, "--out", grades, "--gpu", "--gpu-targets", args.gpu_targets, "--build-jobs",
               str(args.build_jobs), "--chapters", ",".join(chapters)] + \
        (["--keep-work"] if args.keep_work else [])
    start = time.monotonic()
    with open(os.path.join(out, "class-grading.log"), "w") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - start

    problems = [] if status == 0 else [f"tools/instructor/grade exited with status {status}"]
    rows = []
    for name, want in expected.items():
        directory = os.path.join(grades, "submissions", name)
        try:
            with open(os.path.join(directory, "result.json")) as f:
                result = json.load(f)
            with open(os.path.join(directory, "results.json")) as f:
                gradescope = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{name}: no result ({e})")
            continue
        for missing in ("gradebook.csv", "junit.xml", "report.md"):
            if not os.path.isfile(os.path.join(directory, missing)):
                problems.append(f"{name}: no {missing}")
        problems += [f"{name}: results.json: {p}" for p in scoring.validate_gradescope(gradescope)]
        if result["score"] != want or result["max_score"] != maximum:
            # Which checks make the difference: lost in a solved chapter, scored in another.
            solved = {"reference": chapters, "mix": solved_in_mix}.get(name, [])
            off = [f"{'lost' if t['chapter'] in solved else 'scored'}: {t['name']} ({t['status']})"
                   for t in result["tests"]
                   if (t["score"] < t["max_score"]) == (t["chapter"] in solved)
                   and t["max_score"] > 0]
            problems.append(f"{name}: {scoring.number(result['score'])} of "
                            f"{scoring.number(result['max_score'])} points, expected "
                            f"{scoring.number(want)}; " + "; ".join(off))
        rows.append([name, scoring.number(result["score"]), scoring.number(result["max_score"]),
                     f"{result['build_seconds']:.0f}", f"{result['run_seconds']:.0f}"])

    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip().splitlines()
    except OSError:
        gpu = []
    lines = [f"# A class of three graded with the GPU checks on {gpu[0] if gpu else 'no GPU'} "
             f"({os.cpu_count()} CPU cores), {len(chapters)} chapters, "
             f"--build-jobs {args.build_jobs}: written by tools/instructor/run_gpu_grading.py.",
             "# Builds of the next submissions run while one runs its checks, so a build's "
             "seconds overlap another's checks.",
             "submission\tscore\tmax_score\tbuild_seconds\tcheck_seconds"]
    lines += ["\t".join(r) for r in rows]
    with open(os.path.join(out, "class-grading.log")) as f:
        pristine = re.search(r"pristine workbook is ready after (\d+) s", f.read())
    lines.append(f"pristine workbook, built once\t\t\t{pristine.group(1) if pristine else ''}\t")
    lines.append(f"whole class\t\t\t\t{wall:.0f}")
    if pristine:
        lines.append(f"the class once the pristine workbook is built\t\t\t\t"
                     f"{wall - int(pristine.group(1)):.0f}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "class-grading-seconds.tsv"), "w") as f:
        f.write(text)
    if not problems:
        measured = os.path.join(root, "tools", "maintainer", "measurements", args.name)
        os.makedirs(measured, exist_ok=True)
        with open(os.path.join(measured, "class-grading-seconds.tsv"), "w") as f:
            f.write(text)
    print(text, end="")
    with open(os.path.join(grades, "class.csv")) as f:
        print(f.read(), end="")
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
