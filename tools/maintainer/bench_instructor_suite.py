#!/usr/bin/env python3
"""Times the README's instructor commands on this machine: the committed workbook checked out
fresh, then

    meson setup build-solution -Dkernels=solution [-Dchapters=...] [-Dgpu_targets=...]
    meson test -C build-solution

(the second builds what the first configured, then runs every test: the reference solutions'
checks, the graders' self-tests against typical wrong answers, the lessons' checks), and how many
tests passed, failed and skipped. Writes tools/maintainer/measurements/<name>/
instructor-suite[-<label>].tsv. Run it alone on the machine: it times builds. Not a test.

    tools/maintainer/bench_instructor_suite.py [--name 2cores-nogpu] [--label one-chapter]
                                               [--chapters NN_slug,MM_slug] [--gpu-targets T]
                                               [--keep DIR]
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

from scratch_handout import checkout, fresh_folder, write_measurements
import meson_testlog

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A fresh checkout's times: a ccache filled by earlier builds would hide the compiler's.
os.environ["CCACHE_DISABLE"] = "1"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="2cores-nogpu")
    parser.add_argument("--label")
    parser.add_argument("--chapters")
    parser.add_argument("--gpu-targets")
    parser.add_argument("--keep", help="work here (default: a temporary folder)")
    args = parser.parse_args()
    work = fresh_folder(args.keep, "instructor-suite-")
    tree = work / "workbook"
    commit = checkout(ROOT, "HEAD", tree)
    setup = ["meson", "setup", "build-solution", "-Dkernels=solution"]
    if args.chapters:
        setup.append(f"-Dchapters={args.chapters}")
    if args.gpu_targets:
        setup.append(f"-Dgpu_targets={args.gpu_targets}")
    start = time.monotonic()
    configured = subprocess.run(setup, cwd=tree, capture_output=True, text=True)
    setup_seconds = time.monotonic() - start
    if configured.returncode != 0:
        sys.exit("meson setup failed:\n" + configured.stdout[-3000:] + configured.stderr[-3000:])
    targets = next((l.split(":", 1)[1].strip() for l in configured.stdout.splitlines()
                    if "GPU targets" in l), "?")
    start = time.monotonic()
    with open(work / "test.log", "w") as log:
        subprocess.run(["meson", "test", "-C", "build-solution"], cwd=tree, stdout=log,
                       stderr=subprocess.STDOUT)
    test_seconds = time.monotonic() - start
    passed, failed, skipped = meson_testlog.counts(
        meson_testlog.read(str(tree / "build-solution/meson-logs/testlog.json")))
    rows = [("setup_seconds", setup_seconds, "s"), ("test_seconds", test_seconds, "s"),
            ("total_seconds", setup_seconds + test_seconds, "s"),
            ("tests.passed", passed, "tests"), ("tests.failed", failed, "tests"),
            ("tests.skipped", skipped, "tests")]
    name = "instructor-suite" + (f"-{args.label}" if args.label else "") + ".tsv"
    write_measurements(ROOT / "tools/maintainer/measurements" / args.name / name,
                       "bench_instructor_suite.py",
                       [f"GPU targets {targets}", f"workbook: {commit[:12]}; chapters: "
                        f"{args.chapters or 'all'}; date: {{date}}"], rows)
    if failed:
        print(f"{failed} tests failed: see {work / 'test.log'}")
    elif not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
