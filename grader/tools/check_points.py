#!/usr/bin/env python3
"""Holds a chapter's points to its grader: every host and GPU check the grader has is listed
once, with its mode, and nothing else is.

    check_points.py GRADER POINTS.tsv [HIDDEN_POINTS.tsv] [--catch2-v3]

HIDDEN_POINTS.tsv lists the hidden checks of official grading (solutions/NN_slug/), which a
grader has when it is built with them.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import points as points_file  # noqa: E402


def listed(grader, mode, v3):
    option = ["--list-tests", "--verbosity", "quiet"] if v3 else ["--list-test-names-only"]
    run = subprocess.run([grader, mode] + option, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"check_points.py: {grader} {mode} could not list its checks:\n{run.stdout}"
                 f"{run.stderr}")
    return {line.strip() for line in run.stdout.splitlines() if line.strip()}


def main():
    args = [a for a in sys.argv[1:] if a != "--catch2-v3"]
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    grader, paths = args[0], args[1:]
    v3 = "--catch2-v3" in sys.argv[1:]
    try:
        checks = points_file.load(paths[0])
        if len(paths) == 2:
            checks += points_file.load(paths[1], hidden=True)
    except points_file.PointsError as e:
        sys.exit(str(e))
    problems = []
    names = [c.name for c in checks]
    if len(set(names)) != len(names):
        problems.append("a hidden check has the name of a check of points.tsv")
    for mode in ("host", "gpu"):
        have = listed(grader, mode, v3)
        declared = {c.name for c in checks if c.mode == mode}
        for name in sorted(have - declared):
            problems.append(f"{mode} check without points: {name}")
        for name in sorted(declared - have):
            problems.append(f"points for a {mode} check the grader does not have: {name}")
    if problems:
        print(f"{' and '.join(paths)}:\n  " + "\n  ".join(problems))
        return 1
    hidden = sum(c.hidden for c in checks)
    print(f"{' and '.join(paths)}: {len(checks)} checks ({hidden} hidden), "
          f"{points_file.number(sum(c.points for c in checks))} points, every check of the "
          f"grader listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
