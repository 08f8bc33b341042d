#!/usr/bin/env python3
"""Grades a class of three with the GPU checks on this machine, as an instructor would, and
records how long it took. The class (write_class; CI grades it in host mode, grading_ci.py):
`reference` (the reference solutions, as a hand-out tree with a stray file), `skeleton` (the
untouched skeletons, as a .tar.gz) and `mix` (every other chapter solved, as a .zip). The
reference must score full marks, the skeleton zero, and the mix exactly the points of its solved
chapters; every output format must be there. Fails (status 1) otherwise.

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
import tarfile
import time
import zipfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import scoring  # noqa: E402


def exercise_file(root, folder, chapter):
    """The exercise file of `chapter` under `folder` ("solutions" or "chapters") of the workbook."""
    with open(os.path.join(root, folder, chapter, f"{chapter[3:]}_exercise.cu"), "rb") as f:
        return f.read()


def write_class(root, folder, chapters, modes):
    """Writes the class into `folder` and returns the score each submission must get when
    `chapters` are graded in `modes` ("host", "gpu"), and the maximum score."""
    def points(chapter):  # hidden checks included: official grading runs them
        return sum(c.points for c in scoring.load_points(root, chapter) if c.mode in modes)

    solved = chapters[::2]
    for c in chapters:
        path = os.path.join(folder, "reference", "workbook", "chapters", c, f"{c[3:]}_exercise.cu")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(exercise_file(root, "solutions", c))
    with open(os.path.join(folder, "reference", "workbook", "notes.txt"), "wb") as f:
        f.write(b"my notes\n")
    with tarfile.open(os.path.join(folder, "skeleton.tar.gz"), "w:gz") as t:
        for c in chapters:
            t.add(os.path.join(root, "chapters", c, f"{c[3:]}_exercise.cu"),
                  arcname=f"chapters/{c}/{c[3:]}_exercise.cu")
    with zipfile.ZipFile(os.path.join(folder, "mix.zip"), "w") as z:
        for c in chapters:
            z.writestr(f"chapters/{c}/{c[3:]}_exercise.cu",
                       exercise_file(root, "solutions" if c in solved else "chapters", c))
    expected = {"mix": sum(points(c) for c in solved),
                "reference": sum(points(c) for c in chapters), "skeleton": 0}
    return expected, sum(points(c) for c in chapters)


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
    chapters = scoring.manifest.chapters(root)
    if args.chapters:
        unknown = sorted(set(args.chapters.split(",")) - set(chapters))
        if unknown:
            parser.error(f"--chapters: no such chapter: {', '.join(unknown)}")
        chapters = sorted(set(args.chapters.split(",")))
    folder, grades = os.path.join(out, "class"), os.path.join(out, "grades")
    for old in (folder, grades):  # a fresh class and fresh grades: this measures a whole run
        shutil.rmtree(old, ignore_errors=True)
    os.makedirs(folder)
    expected, maximum = write_class(root, folder, chapters, ["host", "gpu"])
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
