#!/usr/bin/env python3
"""Proves the chapter template: a scratch chapter made from it, in a copy of this workbook (never
in the workbook itself), passes the whole workbook suite as a solution and fails as a skeleton.

    tools/maintainer/check_chapter_template.py [--gpu-target NN] [--keep DIR]

In the copy, tools/maintainer/new_chapter.py makes the next chapter (NN_scratch, NN one past the
last chapter), its figures are drawn (`ninja figures`, as new_chapter.py tells its author), and,
built with -Dchapters=NN_scratch (the common libraries, the tools and that chapter; not the
bank model in the browser, whose own test does not depend on a chapter):
  solution mode: the whole suite (meson test, every suite) passes or skips: the chapter's host
    checks and self-tests pass, its GPU checks skip without a GPU, and its lesson checks pass,
    saying that its measured figures await its first GPU run;
  student mode:  every check of the chapter fails (meson_testlog.py student-mode).
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
    numbers = [int(d[:2]) for d in os.listdir(os.path.join(copy, "chapters")) if d[:2].isdigit()]
    number = f"{max(numbers) + 1:02d}"
    chapter = f"{number}_scratch"
    made = subprocess.run([sys.executable, os.path.join(copy, "tools", "maintainer",
                                                        "new_chapter.py"), number, "scratch",
                           "A scratch chapter"], capture_output=True, text=True)
    if made.returncode != 0:
        print(made.stdout + made.stderr)
        return 1

    def build(mode):
        folder = os.path.join(copy, "build-" + mode)
        setup = ["meson", "setup", folder, "-Dkernels=" + mode, "-Dgpu_targets=" + args.gpu_target,
                 "-Dchapters=" + chapter, "-Ddocs=disabled", "-Dbrowser=disabled",
                 "-Dgpu_selftests=skip"]
        steps = [(setup, "setup"), (["ninja", "-C", folder], "build")]
        if mode == "solution":  # the new chapter's bank maps, as new_chapter.py says to draw them
            steps.append((["ninja", "-C", folder, "figures"], "figures"))
        for command, log in steps:
            log_path = os.path.join(work, f"{mode}-{log}.log")
            if run(command, copy, log_path) != 0:
                problems.append(f"{mode} mode: {log} failed (see {log_path})")
                print(open(log_path).read()[-3000:])
                return None
        suites = [] if mode == "solution" else ["--suite", "ch" + number]
        run(["meson", "test", "-C", folder, "--num-processes", "2"] + suites, copy,
            os.path.join(work, f"{mode}-test.log"))
        return meson_testlog.read(os.path.join(folder, "meson-logs", "testlog.json"))

    tests = build("solution")
    if tests is not None:
        out = open(os.path.join(copy, "build-solution", "meson-logs", "testlog.txt")).read()
        passing = ("OK", "SKIP", "EXPECTEDFAIL")  # EXPECTEDFAIL: a should_fail test that failed
        for t in tests:
            if t.in_suite("ch" + number) or t.result not in passing:
                print(f"  solution mode: {t.name}: {t.result}")
            if t.result not in passing or (t.in_suite("host") and t.result != "OK"):
                problems.append(f"solution mode: {t.name} is {t.result}")
                print("    " + t.stdout[-2000:].replace("\n", "\n    "))  # why, as it said
        print(f"  solution mode, the whole suite: {len(tests)} tests, "
              f"{sum(t.result == 'OK' for t in tests)} passed, "
              f"{sum(t.result == 'SKIP' for t in tests)} skipped")
        if "not checked yet: no H200 run is committed for this chapter" not in out:
            problems.append("the lesson checks do not say that the chapter awaits its first GPU "
                            "run")
        if f"passed   ch{number} lesson: it leaves the graded answers to the student" not in out:
            problems.append("the scratch lesson gives away a graded answer (or its check did "
                            "not run)")
        if not any(t.in_suite("host") and t.in_suite("ch" + number) for t in tests):
            problems.append(f"solution mode registered no host checks for ch{number}")
    student = build("student")
    if student is not None and not meson_testlog.student_mode(student):
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
