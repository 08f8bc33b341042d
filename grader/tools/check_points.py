#!/usr/bin/env python3
"""Holds a chapter's points.tsv to its grader: every host and GPU check the grader has is listed
once, with its mode, and nothing else is.

    check_points.py GRADER POINTS.tsv [--catch2-v3]
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from grading import scoring  # noqa: E402


def listed(grader, mode, v3):
    option = ["--list-tests", "--verbosity", "quiet"] if v3 else ["--list-test-names-only"]
    run = subprocess.run([grader, mode] + option, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"check_points.py: {grader} {mode} could not list its checks:\n{run.stdout}"
                 f"{run.stderr}")
    return {line.strip() for line in run.stdout.splitlines() if line.strip()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    grader, points_path = sys.argv[1], sys.argv[2]
    v3 = "--catch2-v3" in sys.argv[3:]
    try:
        points = scoring.load_points(points_path)
    except scoring.PointsError as e:
        sys.exit(str(e))
    problems = []
    for mode in ("host", "gpu"):
        have = listed(grader, mode, v3)
        declared = {name for m, _, name in points if m == mode}
        for name in sorted(have - declared):
            problems.append(f"{mode} check without points: {name}")
        for name in sorted(declared - have):
            problems.append(f"points for a {mode} check the grader does not have: {name}")
    if problems:
        print(f"{points_path}:\n  " + "\n  ".join(problems))
        return 1
    print(f"{points_path}: {len(points)} checks, {scoring.number(sum(p for _, p, _ in points))} "
          f"points, every check of the grader listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
