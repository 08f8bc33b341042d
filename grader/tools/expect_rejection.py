#!/usr/bin/env python3
"""Runs a grader that must reject what it grades, and checks that it does so for the right reason.

    expect_rejection.py --grader EXE --mode host|gpu [--min-sm NN] [--expect TEXT]...
                        [--expect-once TEXT]... [--expect-not TEXT]... [--fails CHECK]...
                        [--passes CHECK]... [--measurements DIR]
    expect_rejection.py --wrong-answer ROOT FOLDER NAME --grader EXE [--min-sm NN] [...]
    expect_rejection.py --wrong-answer ROOT FOLDER NAME --not-built

--wrong-answer reads the mode, the texts and the checks that must fail (--fails) or must not
(--passes) from wrong answer [wrong.NAME] of solutions/FOLDER/chapter.ini
(docs/instructors/maintaining.md says what each key means).

Passes (exit 0) when the grader exits 1; its record (grader/harness/record.hpp) has every
--fails check failed and no --passes check failed; its whole report (the details file, here a
scratch file named by WORKBOOK_FEEDBACK_FILE) says every --expect text, every --expect-once text
exactly once before its closing summary (which repeats each failure's first line), and no
--expect-not text; and its compact report, what a student reads first, says no --expect-not text
but the first --expect text (or, without one, names the first --fails check as failed). That text
may instead be a later case of a check the compact report shows as its first case and a count,
or in a failure it cut short (saying so under its check): the report must then name that check
as failed. Exit 77 (meson SKIP) when the grader skipped its GPU checks for want of a usable GPU.
Anything else fails, printing both reports: a grader that accepts a wrong answer, crashes, or
rejects it for another reason is caught.

--not-built (a build configured with -Dgpu_selftests=skip, for a machine without a GPU: the
wrong answer, which only the GPU checks reject, was not compiled) exits 77 saying so, and what
its GPU checks must say where it is built. --measurements DIR: what the grader measures of the
wrong answer (how fast a conflicted kernel runs, say) goes to DIR, apart from the reference's.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest  # noqa: E402
import record  # noqa: E402

# What the compact report says under a failure it cut short (grader/harness/report.cpp).
CUT = "(More of this failure is in the details file named at the end.)"

parser = argparse.ArgumentParser()
parser.add_argument("--grader")
parser.add_argument("--not-built", action="store_true",
                    help="the wrong answer was not built (-Dgpu_selftests=skip): SKIP")
parser.add_argument("--mode", choices=["host", "gpu"])
parser.add_argument("--wrong-answer", nargs=3, metavar=("ROOT", "FOLDER", "NAME"))
parser.add_argument("--fails", action="append", default=[], help="a check that must fail")
parser.add_argument("--passes", action="append", default=[], help="a check that must not fail")
parser.add_argument("--min-sm", default=None, help="passed on to the grader in gpu mode")
parser.add_argument("--expect", action="append", default=[])
parser.add_argument("--expect-once", action="append", default=[])
parser.add_argument("--expect-not", action="append", default=[])
parser.add_argument("--measurements", default=None, help="folder for the grader's measurements")
args = parser.parse_args()
if args.wrong_answer:
    root, folder, name = args.wrong_answer
    try:
        chapter = manifest.load(root, folder)
    except manifest.ManifestError as e:
        sys.exit(str(e))
    wrong = {w.name: w for w in chapter.wrong_answers}.get(name)
    if wrong is None:
        sys.exit(f"solutions/{folder}/chapter.ini has no wrong answer [wrong.{name}]")
    args.mode = wrong.mode
    args.expect += [t for t in (wrong.expect, wrong.expect_also) if t]
    args.expect_not += [wrong.expect_not] if wrong.expect_not else []
    args.fails += [chapter.check(c).name for c in wrong.fails]
    args.passes += [chapter.check(c).name for c in wrong.passes]
if not args.mode:
    parser.error("--mode host|gpu is required (or --wrong-answer)")
if args.not_built:
    if args.mode != "gpu":
        parser.error("--not-built is for a wrong answer that only the GPU checks reject "
                     "(--mode gpu)")
    print("SKIP: this wrong answer was not built: only the GPU checks reject it, and this build "
          "was configured with -Dgpu_selftests=skip (for a machine without a GPU); configure "
          "with -Dgpu_selftests=build on a GPU machine to run it"
          + "".join(f"\n  there, its GPU checks must say: {text}" for text in args.expect)
          + "".join(f"\n  there, this check must fail: {name}" for name in args.fails))
    sys.exit(77)
if not args.grader:
    parser.error("--grader EXE is required (or --not-built)")

env = dict(os.environ)
env.pop("WORKBOOK_MEASUREMENTS_DIR", None)
if args.measurements:
    os.makedirs(args.measurements, exist_ok=True)
    env["WORKBOOK_MEASUREMENTS_DIR"] = args.measurements

command = [args.grader, args.mode]
if args.mode == "gpu" and args.min_sm:
    command += ["--min-sm", args.min_sm]
env.pop("WORKBOOK_FEEDBACK", None)  # the compact report, as a student gets it
problems = []
with tempfile.TemporaryDirectory() as scratch:
    env["WORKBOOK_FEEDBACK_FILE"] = os.path.join(scratch, "details.txt")
    record_path = os.path.join(scratch, "record.jsonl")
    run = subprocess.run(command + ["--record", record_path], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace", timeout=600,
                         env=env)
    try:
        with open(env["WORKBOOK_FEEDBACK_FILE"], errors="replace") as f:
            details = f.read()
    except OSError:
        details = None
    try:
        with open(record_path, "rb") as f:
            outcomes = record.parse(f.read()).outcomes()
    except (OSError, record.RecordRefused) as e:
        outcomes = {}
        problems.append(f"the grader's record cannot be read: {e}")
compact = run.stdout
if run.returncode == 77:
    print(compact)
    print("SKIP: the grader skipped its GPU checks (no usable GPU)")
    sys.exit(77)
if run.returncode == 0:
    problems.append("the grader ACCEPTED it (exit 0); it must fail")
elif run.returncode != 1:
    problems.append(f"the grader exited {run.returncode}; a rejection is exit 1")
if details is None:
    problems.append("the grader wrote no details file (WORKBOOK_FEEDBACK_FILE)")
    details = ""
for name in args.fails:
    if outcomes.get(name) != "failed":
        problems.append(f"the check {name!r} did not fail ({outcomes.get(name, 'not run')}); "
                        f"this wrong answer must fail it")
for name in args.passes:
    if outcomes.get(name) == "failed":
        problems.append(f"the check {name!r} failed; this wrong answer is one only other checks "
                        f"catch, so it must not")
# Catch2 and the compact report wrap long messages: compare with every run of blanks and line
# breaks as one space.
flat = " ".join(details.split())
flat_compact = " ".join(compact.split())
for text in args.expect:
    if " ".join(text.split()) not in flat:
        problems.append(f"the whole report does not say: {text!r}")
if not args.expect and args.fails and f"FAILED {args.fails[0]}" not in flat_compact:
    problems.append(f"the compact report does not name {args.fails[0]!r} as failed: a student "
                    "must read it without opening the details")
if args.expect and " ".join(args.expect[0].split()) not in flat_compact:
    # A later case of a check the compact report shows as its first case and a count: the text
    # must be that case's failure message (Catch2's console output heads each test case with its
    # name between two rules of dashes, and each failure with "FAILED:" and its message).
    wanted = " ".join(args.expect[0].split())
    pieces = re.split(r"^-{79}\n(.*?)\n-{79}\n", details, flags=re.M | re.S)
    check = next((" ".join(name.split()) for name, body in zip(pieces[1::2], pieces[2::2])
                  if any(wanted in " ".join(m.split()) for m in
                         re.findall(r"FAILED:\n[^\n]*with messages?:\n((?:  [^\n]*\n)+)", body))),
                 None)
    if check is None:
        # Or the first screen cut a long failure short, saying so under its check: the text is
        # in that failure's full message, which the report points to.
        for name, body in zip(pieces[1::2], pieces[2::2]):
            name = " ".join(name.split())
            shown_block = flat_compact.split(f"FAILED {name}", 1)
            failures = re.split(r"^\S+:\d+: FAILED:\n", body, flags=re.M)[1:]
            if len(shown_block) == 2 and any(wanted in " ".join(f.split()) for f in failures) \
                    and CUT in shown_block[1].split(" FAILED ", 1)[0]:
                check = name
                break
    if check is None or f"FAILED {check}" not in flat_compact:
        problems.append(f"the compact report does not say: {args.expect[0]!r}, nor is it the "
                        f"message of a later case of a check it reports ({check}): a student "
                        "must read it without opening the details")
for text in args.expect_not:
    if " ".join(text.split()) in flat:
        problems.append(f"the whole report says {text!r}, which it must not")
    if " ".join(text.split()) in flat_compact:
        problems.append(f"the compact report says {text!r}, which it must not")
# The grader's closing summary repeats each failure's first line: count before it.
checks_output = flat.split("==== Summary")[0]
for text in args.expect_once:
    count = checks_output.count(" ".join(text.split()))
    if count != 1:
        problems.append(f"the whole report says {text!r} {count} times; expected once")
print(compact)
if problems:
    print("---- the whole report (the details file) ----")
    print(details)
    print("GRADER SELF-TEST FAILED:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"ok: the {args.mode} checks rejected it as expected")
