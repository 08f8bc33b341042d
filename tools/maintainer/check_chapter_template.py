#!/usr/bin/env python3
"""Proves the chapter template: a scratch chapter made from it, in a copy of this workbook (never
in the workbook itself), builds, its skeleton fails its grader and its solution passes.

    tools/maintainer/check_chapter_template.py [--gpu-target NN] [--keep DIR]

In the copy, tools/maintainer/new_chapter.py makes chapter 99_scratch; then, built with -Dchapters=99_scratch
(the common libraries and that chapter only):
  solution mode: its host checks pass, its GPU checks and self-tests pass (or skip without a
    GPU), its lesson checks fail only because no H200 measurement is committed for it (the
    check that the lesson leaves the graded answers to the student passes), and its figures
    are drawn and shown (draw_lesson_figures.py --check);
  student mode:  every check of the chapter fails (check_student_mode.py).
Exit 0 when all of that holds. CI runs it (.ci/run).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import meson_testlog  # noqa: E402

CHAPTER = "99_scratch"


def copy_workbook(target):
    """The workbook's own files (tracked and untracked-but-not-ignored), without build output."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], cwd=ROOT, check=True,
                                capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed is None:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns("build*", ".git"))
        return
    for path in filter(None, listed):
        source = os.path.join(ROOT, path)
        if not os.path.isfile(source):
            continue  # listed but deleted in the working tree
        os.makedirs(os.path.dirname(os.path.join(target, path)), exist_ok=True)
        shutil.copy2(source, os.path.join(target, path))


def run(command, cwd, log):
    with open(log, "w") as out:
        return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu-target", default="75", help="-Dgpu_targets for the scratch builds")
    parser.add_argument("--keep", help="make the copy here and keep it (default: a temporary one)")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="workbook-template-")
    copy = os.path.join(work, "workbook")
    if os.path.exists(copy):
        shutil.rmtree(copy)
    copy_workbook(copy)
    problems = []
    made = subprocess.run([sys.executable, os.path.join(copy, "tools", "maintainer", "new_chapter.py"), "99",
                           "scratch", "A scratch chapter"], capture_output=True, text=True)
    if made.returncode != 0:
        print(made.stdout + made.stderr)
        return 1

    def build(mode):
        folder = os.path.join(copy, "build-" + mode)
        setup = ["meson", "setup", folder, "-Dkernels=" + mode, "-Dgpu_targets=" + args.gpu_target,
                 "-Dchapters=" + CHAPTER, "-Ddocs=disabled", "-Dbrowser=disabled"]
        for command, log in ((setup, "setup"), (["ninja", "-C", folder], "build")):
            log_path = os.path.join(work, f"{mode}-{log}.log")
            if run(command, copy, log_path) != 0:
                problems.append(f"{mode} mode: {log} failed (see {log_path})")
                print(open(log_path).read()[-3000:])
                return None
        run(["meson", "test", "-C", folder, "--suite", "ch99", "--num-processes", "2"], copy,
            os.path.join(work, f"{mode}-test.log"))
        return meson_testlog.read(os.path.join(folder, "meson-logs", "testlog.json"))

    tests = build("solution")
    if tests is not None:
        for t in tests:
            print(f"  solution mode: {t.name}: {t.result}")
            if t.in_suite("lessons"):
                out = open(os.path.join(copy, "build-solution", "meson-logs", "testlog.txt")).read()
                if t.result != "FAIL" or "no H200 measurement for this threshold" not in out:
                    problems.append("the lesson checks must fail for the missing H200 measurement "
                                    "alone, before a GPU run is committed")
                if "passed   ch99 lesson: it leaves the graded answers to the student" not in out:
                    problems.append("the scratch lesson gives away a graded answer (or its check "
                                    "did not run)")
            elif t.result not in ("OK", "SKIP") or (t.in_suite("host") and t.result != "OK"):
                problems.append(f"solution mode: {t.name} is {t.result}")
        if not any(t.in_suite("host") for t in tests):
            problems.append("solution mode registered no host checks for ch99")
    # The scratch chapter's figures are drawn and shown as the template promises.
    figures = subprocess.run([sys.executable, os.path.join(copy, "tools", "maintainer", "draw_lesson_figures.py"),
                              os.path.join(copy, "build-solution", "tools", "analyze_smem_access"),
                              copy, "--check"], capture_output=True, text=True)
    print("  figures: " + (figures.stdout.strip().splitlines() or ["?"])[-1])
    if figures.returncode != 0:
        problems.append("the scratch chapter's figures are stale or not shown:\n" + figures.stdout)
    student = build("student")
    if student is not None:
        check = subprocess.run([sys.executable, os.path.join(HERE, "check_student_mode.py"),
                                os.path.join(copy, "build-student", "meson-logs", "testlog.json")],
                               capture_output=True, text=True)
        print(check.stdout.rstrip())
        if check.returncode != 0:
            problems.append("student mode: the scratch skeleton does not fail every check")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print("PROBLEM:", p)
    print("chapter template: " + ("a scratch chapter builds, fails as a skeleton and passes as a "
                                  "solution" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
