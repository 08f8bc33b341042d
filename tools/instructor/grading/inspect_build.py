"""Runs inside a grading sandbox, in a build of the workbook over a submission's files, and writes
what it finds as JSON to the file named by --out (the sandbox's report pipe):

    inspect_build.py BUILD TARGET... --out FILE   builds the targets (ninja -k 0: one target's
                                                  failure is not another's): {target: {"built",
                                                  "errors"}}, "errors" what the build printed
                                                  about the target

Nothing here judges anything: the grading tool does, outside the sandbox.
"""
import argparse
import json
import os
import re
import subprocess
import sys

OUTPUT_BYTES = 1 << 20
# How many compilers run at once, where the sandbox says (a Gradescope container of 768 MB holds
# one nvcc, not ninja's default of one per CPU it sees, plus two).
JOBS = ["-j", os.environ["WORKBOOK_BUILD_JOBS"]] \
    if os.environ.get("WORKBOOK_BUILD_JOBS", "").isdigit() else []


def run(command, cwd, show=False):
    """(status, output) of `command`; with `show`, its output goes to the build log too."""
    done = subprocess.run(command, cwd=cwd, capture_output=True)
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if show:
        sys.stdout.write(text[-OUTPUT_BYTES:])
        sys.stdout.flush()
    return done.returncode, text[-OUTPUT_BYTES:]


def up_to_date(build, target):
    """Whether ninja has nothing left to do for `target` (a failed build leaves work to do, and
    the pristine workbook's files, seen under a submission's, must not pass for its own)."""
    status, text = run(["ninja", "-C", build, "-n", target], build)
    return status == 0 and "no work to do" in text


STEP = re.compile(r"\[\d+/\d+\] |FAILED: |ninja: ")


def about(output, names):
    """{name: what ninja's `output` says about the targets whose names hold `name`}: each step's
    lines (its status line, or its FAILED line and command, then what it printed) go to the names
    its first lines hold, and ninja's own lines (its errors) to every name."""
    steps, current = [], []
    for line in output.splitlines(keepends=True):
        if STEP.match(line) and current:
            steps.append(current)
            current = []
        current.append(line)
    if current:
        steps.append(current)
    parts = {name: [] for name in names}
    for step in steps:
        heading = "".join(step[:2] if step[0].startswith("FAILED: ") else step[:1])
        owners = [n for n in names if n in heading]
        for name in owners or (names if step[0].startswith("ninja: ") else []):
            parts[name] += step
    return {name: "".join(lines) for name, lines in parts.items()}


def build(folder, targets):
    status, output = run(["ninja", "-C", folder, "-k", "0"] + JOBS + targets, folder, show=True)
    said = about(output, targets)
    return {t: {"built": status == 0 or up_to_date(folder, t), "errors": said[t]}
            for t in targets}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("targets", nargs="+")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    result = build(args.build, args.targets)
    with open(args.out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
