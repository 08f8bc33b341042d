#!/usr/bin/env python3
"""Checks that the shipped skeletons score no points: every check a chapter's untouched
skeleton passes is worth 0 points (a guard), in the mode asked.

    check_skeleton_points.py BUILD --mode host|gpu [--chapters 01_x,02_y]

BUILD is a student-mode build (the skeletons). Each chapter's grader runs in the mode, writing
its record (grader/harness/record.hpp), and its results are scored with the chapter's points.tsv
(and the hidden checks' points, where the checkout has them) as class grading scores them. Class grading relies
on this: it does not run the GPU checks of a chapter whose exercise file is the untouched
skeleton (tools/instructor/grading/checks.py), since they would score nothing. Exit 0 when every
chapter's skeleton scores 0, 1 otherwise, 77 when the GPU checks cannot run here (no GPU).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "instructor"))
from grading import scoring  # noqa: E402
import meson_testlog  # noqa: E402  (beside this file)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--mode", choices=["host", "gpu"], required=True)
    parser.add_argument("--chapters")
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    # The build's own source tree: a checkout (its graders hold the hidden checks, which
    # solutions/ has) or a hand-out (no hidden checks, no solutions/).
    source = pathlib.Path(meson_testlog.source_root(build))
    chapters = sorted(p.name for p in (source / "chapters").iterdir()
                      if (source / "grader" / p.name / "chapter.ini").is_file())
    if args.chapters:
        chapters = [c for c in chapters if c in args.chapters.split(",")]
    problems, skipped, scored = [], [], 0
    for chapter in chapters:
        grader = build / f"ch{chapter[:2]}_{chapter[3:]}_grader"
        if not grader.is_file():
            problems.append(f"{chapter}: no grader {grader} (build the student mode first)")
            continue
        with tempfile.NamedTemporaryFile(suffix=".jsonl") as report:
            run = subprocess.run([str(grader), args.mode, "--record", report.name],
                                 capture_output=True, text=True, timeout=900,
                                 env=dict(os.environ, WORKBOOK_VARIANT="0",
                                          WORKBOOK_FEEDBACK="full"))
            data = pathlib.Path(report.name).read_bytes()
        if run.returncode == 77:
            skipped.append(chapter)
            continue
        try:
            reported = scoring.record.parse(data).results()
        except scoring.record.RecordRefused as e:
            problems.append(f"{chapter}: its report cannot be read ({e})")
            continue
        points = scoring.load_points(source, chapter)
        tests = scoring.score_chapter(chapter, points, [args.mode], {args.mode: reported}, {})
        earned = [t for t in tests if t["score"] > 0]
        scored += len(tests)
        for t in earned:
            problems.append(f"{chapter}: the skeleton passes \"{t['name']}\", worth "
                            f"{scoring.number(t['score'])} points (a check the skeleton passes "
                            f"must be a guard worth 0)")
        missing = [t["name"] for t in tests if t["status"] == "not reported"]
        if missing:
            problems.append(f"{chapter}: checks that did not report: {'; '.join(missing[:3])}")
    for p in problems:
        print("PROBLEM: " + p)
    if skipped and len(skipped) == len(chapters):
        print(f"SKIP: the {args.mode} checks cannot run here")
        return 77
    print(f"skeleton points ({args.mode}): {scored} checks of {len(chapters) - len(skipped)} "
          f"chapters scored, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
