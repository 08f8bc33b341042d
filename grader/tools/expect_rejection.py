#!/usr/bin/env python3
"""Runs a grader that must reject what it grades, and checks that it does so for the right reason.

    expect_rejection.py --grader EXE --mode host|gpu [--min-sm NN] [--expect TEXT]...
                        [--expect-once TEXT]... [--expect-not TEXT]... [--measurements DIR]

Passes (exit 0) when the grader exits 1 (checks failed) and its output contains every --expect
text, every --expect-once text exactly once (in the checks' output, before the grader's closing
summary, which repeats each failure's first line), and no --expect-not text. Exit 77 (meson SKIP) when the grader skipped
because there is no usable GPU. Anything else fails with the grader's output, so that a grader
which accepts a wrong answer, crashes, or rejects it for another reason is caught.

With --measurements, what the grader measures of the wrong answer (for example how fast a
conflicted kernel runs) is written to DIR, apart from the reference solution's numbers.
"""
import argparse
import os
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--grader", required=True)
parser.add_argument("--mode", choices=["host", "gpu"], required=True)
parser.add_argument("--min-sm", default=None, help="passed on to the grader in gpu mode")
parser.add_argument("--expect", action="append", default=[])
parser.add_argument("--expect-once", action="append", default=[])
parser.add_argument("--expect-not", action="append", default=[])
parser.add_argument("--measurements", default=None, help="folder for the grader's measurements")
args = parser.parse_args()

env = dict(os.environ)
env.pop("WORKBOOK_MEASUREMENTS_DIR", None)
if args.measurements:
    os.makedirs(args.measurements, exist_ok=True)
    env["WORKBOOK_MEASUREMENTS_DIR"] = args.measurements

command = [args.grader, args.mode]
if args.mode == "gpu" and args.min_sm:
    command += ["--min-sm", args.min_sm]
run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     text=True, errors="replace", timeout=600, env=env)
out = run.stdout
problems = []
if run.returncode == 77:
    print(out)
    print("SKIP: the grader skipped its GPU checks (no usable GPU)")
    sys.exit(77)
if run.returncode == 0:
    problems.append("the grader ACCEPTED it (exit 0); it must fail")
elif run.returncode != 1:
    problems.append(f"the grader exited {run.returncode}; a rejection is exit 1")
# Catch2 wraps long messages: compare with every run of blanks and line breaks as one space.
flat = " ".join(out.split())
for text in args.expect:
    if " ".join(text.split()) not in flat:
        problems.append(f"the output does not say: {text!r}")
for text in args.expect_not:
    if " ".join(text.split()) in flat:
        problems.append(f"the output says {text!r}, which it must not")
# The grader's closing summary repeats each failure's first line: count before it.
checks_output = flat.split("==== Summary")[0]
for text in args.expect_once:
    count = checks_output.count(" ".join(text.split()))
    if count != 1:
        problems.append(f"the output says {text!r} {count} times; expected once")
print(out)
if problems:
    print("GRADER SELF-TEST FAILED:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"ok: the {args.mode} checks rejected it as expected")
