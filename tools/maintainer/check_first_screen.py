#!/usr/bin/env python3
"""What a student sees first: every chapter's grader of a student-mode build (the skeletons as
shipped), held to an 80 x 24 terminal.

    check_first_screen.py BUILD [--mode host|gpu] [--chapters chNN,chMM]

Each chapter's host (or GPU) checks run as meson runs them (`meson introspect --tests`), then
once more with Catch2's XML reporter, which says what failed: the first failed check, each
failure's message, how many each check had, and the hints its details gave. The report the
grader printed must show, for an untouched chapter:

  - within its first 24 rows of 80 columns: the first failed check's name, the reason of its
    first failure, and after them one of that check's hints or an explicit "What to do:";
  - no hint twice;
  - each failed check once, as its first case and a count of the others ("+ N more failed
    cases"), none of the others' reasons;

and the details file it names at its end must hold the whole report: every failure's message,
and one Catch2 "FAILED:" per failure. Where the GPU checks cannot run (exit 77), each grader
must say so, and why, in at most 8 rows (no case list). Prints one line per grader; exits 1 on
any problem. Both runs use one WORKBOOK_SEED, so that the GPU checks draw the same inputs; in GPU mode
numbers are not compared (a time differs from run to run).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meson_testlog  # noqa: E402  (beside this file)

COLUMNS, ROWS = 80, 24
SKIP_ROWS = 8
SEED = "20260101"
FAILURE_TAGS = {"Failure", "Exception", "FatalErrorCondition"}


@dataclass
class Check:
    """A test case as Catch2's XML reporter tells it."""
    name: str
    failures: list = field(default_factory=list)  # each failure's message, in order
    hints: list = field(default_factory=list)     # the hints its details printed


def flat(text):
    return " ".join(text.split())


def masked(text, numbers):
    """`text` flattened; with `numbers` False, every number is # (times differ between runs)."""
    text = flat(text)
    return text if numbers else re.sub(r"\d+(\.\d+)?", "#", text)


def first_screen(text):
    """What an 80 x 24 terminal shows of `text` before it scrolls: its first 24 rows, a line
    longer than 80 columns taking as many rows as it fills."""
    shown, row = [], 0
    for line in text.split("\n"):
        if row >= ROWS:
            break
        rows = max(1, math.ceil(len(line) / COLUMNS))
        shown.append(line[:(ROWS - row) * COLUMNS])
        row += rows
    return "\n".join(shown)


def rows_of(text):
    return sum(max(1, math.ceil(len(line) / COLUMNS)) for line in text.rstrip("\n").split("\n"))


def read_xml(path):
    """The checks of a Catch2 XML report (v2 or v3), in the order they ran."""
    checks = []
    for case in ElementTree.parse(path).getroot().iter("TestCase"):
        check = Check(case.get("name", ""))
        for element in case.iter():
            if element.tag in FAILURE_TAGS:
                check.failures.append("".join(element.itertext()).strip())
            elif element.tag == "Expression" and element.get("success") == "false":
                check.failures.append((element.findtext("Original") or "").strip())
        for out in case.iter("StdOut"):
            check.hints += [flat(h) for h in re.findall(r"Hint: (.*)", out.text or "")]
        checks.append(check)
    return checks


def blocks_of(report):
    """The report's paragraphs (runs of lines between blank lines), each flattened."""
    return [flat(b) for b in re.split(r"\n\s*\n", report) if b.strip()]


def hints_of(report):
    """Every hint the report prints: a line "  Hint: ..." and the lines indented under it."""
    hints, current = [], None
    for line in report.split("\n"):
        if line.startswith("  Hint: "):
            current = [line[len("  Hint: "):]]
            hints.append(current)
        elif current is not None and line.startswith("        ") and line.strip():
            current.append(line)
        else:
            current = None
    return [flat(" ".join(h)) for h in hints]


def details_path(report):
    """The details file the report names at its end, as printed, or None."""
    lines = report.rstrip("\n").split("\n")
    for i, line in enumerate(lines[:-1]):
        if line.startswith("Every failure in full"):
            return lines[i + 1].strip()
    return None


def judge(report, details, checks, numbers=True):
    """The problems of a grader's `report` (its standard output) and `details` (the details
    file's text, or None), against `checks` (read_xml). Empty when all is well."""
    problems = []
    failed = [c for c in checks if c.failures]
    if not failed:
        return ["no check failed: an untouched chapter must fail"]
    first = failed[0]
    screen = masked(first_screen(report), numbers)
    where = screen.find(masked(first.name, numbers))
    if where < 0:
        problems.append(f"the first screen does not name the first failed check, {first.name!r}")
    reason = masked(first.failures[0].split("\n")[0], numbers)
    if reason not in screen:
        problems.append(f"the first screen does not give its reason, {reason!r}")
    after = screen[max(where, 0):]
    advice = ["What to do: "] + ["Hint: " + masked(h, numbers) for h in first.hints]
    if not any(a in after for a in advice):
        problems.append("the first screen gives no hint or what to do for the first failed check "
                        f"(its hints: {first.hints or 'none'})")

    hints = hints_of(report)
    repeated = sorted({h for h in hints if hints.count(h) > 1})
    for h in repeated:
        problems.append(f"the hint {h[:70]!r}... is printed {hints.count(h)} times")

    blocks = blocks_of(report)
    for check in failed:
        mine = [b for b in blocks if b.startswith("FAILED " + flat(check.name))]
        if len(mine) != 1:
            problems.append(f"{check.name!r} is reported in {len(mine)} blocks, not one")
            continue
        block = mine[0]
        more = re.findall(r"\+ (\d+) more failed cases? of this check", block)
        if more != ([str(len(check.failures) - 1)] if len(check.failures) > 1 else []):
            problems.append(f"{check.name!r} failed {len(check.failures)} times; its block counts "
                            f"{more or 'none'} more")
        # A later case that reads the same as the first once numbers are masked (the same
        # prediction at another size, say) cannot be told apart from it: only others count.
        shown = [m for m in check.failures[1:]
                 if masked(m, numbers) != masked(check.failures[0], numbers) and
                 masked(m, numbers) in masked(block, numbers)]
        if shown:
            problems.append(f"{check.name!r} shows more than its first case: {shown[0]!r}")

    if details is None:
        problems.append("the report names no details file, or it cannot be read")
    else:
        # Catch2's console wraps a message between words and also inside one (before a "[" or
        # after a "]", say): compare without any blanks.
        def bare(text):
            return re.sub(r"\s+", "", masked(text, numbers))

        whole = bare(details)
        missing = [m for c in failed for m in c.failures if bare(m) not in whole]
        if missing:
            problems.append(f"the details file lacks {len(missing)} failures, the first "
                            f"{missing[0]!r}")
        told = len(re.findall(r"FAILED:\s*$", details, flags=re.M))
        total = sum(len(c.failures) for c in failed)
        if told != total:
            problems.append(f"the details file reports {told} failures; the checks had {total}")
    return problems


def judge_skip(report):
    """The problems of a GPU run that skipped for want of a GPU (exit 77)."""
    problems = []
    if rows_of(report) > SKIP_ROWS:
        problems.append(f"the skip takes {rows_of(report)} rows, more than {SKIP_ROWS}")
    if not re.search(r"SKIP: GPU checks not run: \S", report):
        problems.append("the skip does not say why the GPU checks did not run")
    return problems


def chapter_tests(build, mode, chapters):
    listed = subprocess.run(["meson", "introspect", "--tests", build], capture_output=True,
                            text=True, check=True)
    wanted = re.compile(r"(ch\d\d) " + ("host" if mode == "host" else "GPU") + " checks")
    tests = []
    for test in json.loads(listed.stdout):
        found = wanted.fullmatch(test["name"])
        if found and (not chapters or found.group(1) in chapters):
            tests.append(test)
    return sorted(tests, key=lambda t: t["name"])


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("build")
    parser.add_argument("--mode", choices=["host", "gpu"], default="host")
    parser.add_argument("--chapters", default="", help="comma-separated chapter suites (chNN)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    root = meson_testlog.source_root(build)
    tests = chapter_tests(build, args.mode, [c for c in args.chapters.split(",") if c])
    if not tests:
        sys.exit(f"no chapter {args.mode} checks in {build}")
    bad = skipped = 0
    with tempfile.TemporaryDirectory() as scratch:
        for test in tests:
            env = dict(os.environ, **test["env"], WORKBOOK_SEED=SEED)
            run = subprocess.run(test["cmd"], cwd=test["workdir"] or build, env=env,
                                 capture_output=True, text=True, errors="replace", timeout=900)
            report = run.stdout
            if run.returncode == 77 and args.mode == "gpu":
                problems = judge_skip(report)
                skipped += not problems
                verdict = "skipped, saying why" if not problems else ""
            else:
                xml = os.path.join(scratch, "report.xml")
                subprocess.run(test["cmd"] + ["-r", "xml", "-o", xml], cwd=test["workdir"] or build,
                               env=env, capture_output=True, timeout=900)
                checks = read_xml(xml)
                path = details_path(report)
                details = None
                if path:
                    try:
                        with open(os.path.join(root, path), errors="replace") as f:
                            details = f.read()
                    except OSError:
                        pass
                problems = [] if run.returncode == 1 else [f"exit {run.returncode}, not 1"]
                problems += judge(report, details, checks, numbers=args.mode == "host")
                first = next((c.name for c in checks if c.failures), "none")
                verdict = f"first failure {first!r} on the first screen, {rows_of(report)} rows"
            bad += bool(problems)
            print(f"  {'ok ' if not problems else 'BAD'} {test['name']}: "
                  + (verdict if not problems else "; ".join(problems)))
            if problems:
                print("    its first screen:\n" + "\n".join(
                    "    | " + line for line in first_screen(report).split("\n")))
    ran = len(tests) - skipped
    print(f"first screen ({args.mode}): {ran - bad} of {ran} graders show what failed first, why "
          f"and what to do" + (f"; {skipped} skipped in a few rows, saying why (no usable GPU)"
                               if skipped else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
