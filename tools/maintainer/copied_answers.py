#!/usr/bin/env python3
"""A classmate's answers, copied: the proof that a variant's answers are its own.

    copied_answers.py make --grader EXE --variant V --solution SOLUTION.cu --interface SLUG.cuh
                           --namespace chNN --out COPY.cu
    copied_answers.py judge --grader COPY_GRADER --own V --other W [--pairs PAIRS]

`make` asks the reference's grader (a solution build's) for its graded cases at variant V
(`<grader> cases`, grader/harness/variant.hpp) and writes the reference solution with every
graded prediction replaced by a table of the numbers it gives for V's cases, as a student who
copied a classmate's answers would hand them in: the reference's own function is renamed out
of the way, and a case the table lacks gets kNotImplemented (-1).

`judge` grades that copy's host checks at V (three draws of fresh cases) and at W: it must lose
only prediction checks at both (the rest is the reference), at least one at W, and at V those a
chapter grades as rules on fresh cases (grader/harness/variant.hpp, fresh_draw), which no table
of one variant's numbers answers; official grading's hidden checks are left out. Then it measures
what copying earns over a class of PAIRS (docs/instructors/maintaining.md), held to the run at W.

Exit 0 when all of that holds, 1 with what did not.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
sys.path.insert(0, os.path.join(ROOT, "tools", "instructor"))
import manifest  # noqa: E402
from grading import variants  # noqa: E402

# The most copying may earn of a chapter's host points that a table could answer, on average over
# the class.
MOST_COPIED = 0.10
CLASS_SECRET = b"copied_answers.py: a class to measure copying on"


def graded_cases(grader, variant):
    """[(check, text, declaration, condition, answer)] of `grader cases` at `variant`."""
    # The answers are the reference's: the grader's own subject, not one WORKBOOK_SUBJECT names.
    env = {k: v for k, v in os.environ.items() if k != "WORKBOOK_SUBJECT"}
    run = subprocess.run([grader, "cases"], capture_output=True, text=True,
                         env=dict(env, WORKBOOK_VARIANT=str(variant)))
    if run.returncode != 0:
        sys.exit(f"copied_answers.py: {grader} cases failed ({run.returncode}): "
                 f"{run.stderr.strip()[:500]}")
    rows = []
    for line in run.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = (line.split("\t") + [""] * 5)[:5]
        rows.append(tuple(fields))
    return rows


def qualified(declaration, namespace, interface_text):
    """`declaration` as a definition outside the chapter's namespace: its name qualified, and
    the interface's __host__ __device__ where it declares the function so."""
    found = re.match(r"\s*(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*$", declaration)
    if not found:
        sys.exit(f"copied_answers.py: cannot read the declaration {declaration!r}")
    prefix, name, parameters = found.groups()
    if "__host__" not in prefix and re.search(
            r"__host__\s+__device__\s+[\w:<> ]+\b" + re.escape(name) + r"\s*\(", interface_text):
        prefix = "__host__ __device__ " + prefix
    return name, f"{prefix}{namespace}::{name}({parameters})"


def make(args):
    rows = graded_cases(args.grader, args.variant)
    with open(args.solution) as f:
        solution = f.read()
    with open(args.interface) as f:
        interface = f.read()
    tables = collections.OrderedDict()
    for check, text, declaration, condition, answer in rows:
        if not declaration:
            continue
        if not re.fullmatch(r"-?\d+", answer):
            sys.exit(f"copied_answers.py: the case {text!r} of {check!r} has no answer "
                     f"({answer!r})")
        tables.setdefault(declaration, collections.OrderedDict())[condition] = int(answer)
    if not tables:
        sys.exit(f"copied_answers.py: {args.grader} lists no prediction at variant "
                 f"{args.variant}: nothing to copy")
    names = [qualified(d, args.namespace, interface)[0] for d in tables]
    lines = solution.splitlines()
    last_include = max(i for i, line in enumerate(lines) if line.startswith("#include"))
    renames = [f"#define {n} {n}_as_the_reference_computes_it" for n in names]
    out = lines[:last_include + 1] + [
        "// Copied answers (tools/maintainer/copied_answers.py): the reference, with its "
        "graded predictions", f"// replaced by the numbers of variant {args.variant}."] + \
        renames + lines[last_include + 1:] + [""]
    for declaration, table in tables.items():
        name, definition = qualified(declaration, args.namespace, interface)
        out.append(f"#undef {name}")
        out.append(definition + " {")
        for condition, answer in table.items():
            out.append(f"  if ({condition}) return {answer};")
        out.append("  return -1;  // not a case of the copied variant")
        out.append("}")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


HIDDEN = re.compile(r"ch\d\d hidden: ")


def host_run(grader, variant, seed=1):
    """(failed, passed) host checks of `grader` at `variant`, official grading's hidden ones
    left out, and what it said. `seed` draws the fresh cases (the same on every run)."""
    run = subprocess.run([grader, "host"], capture_output=True, text=True,
                         env=dict(os.environ, WORKBOOK_VARIANT=str(variant),
                                  WORKBOOK_SEED=str(seed)))
    failed = [c for c in re.findall(r"^  FAILED   (.*)$", run.stdout, flags=re.M)
              if not HIDDEN.match(c)]
    passed = [c for c in re.findall(r"^  passed   (.*)$", run.stdout, flags=re.M)
              if not HIDDEN.match(c)]
    if run.returncode not in (0, 1):
        failed.append(f"(the grader exited {run.returncode})")
    return failed, passed, run.stdout + run.stderr


def judge(args):
    predictions = {c for c, _, d, _, _ in graded_cases(args.grader, args.other) if d}
    # At its own variant, with three draws of fresh cases: a table answers a fresh case only
    # where the draw repeats one of its variant's (a rule's check fails on the other draws).
    failed, passed, said = host_run(args.grader, args.own)
    for seed in (2, 3):
        failed += [c for c in host_run(args.grader, args.own, seed)[0] if c not in failed]
    own_lost = [c for c in failed if c in predictions]
    problems = []
    if len(own_lost) < len(failed) or not (passed or failed):
        problems.append(f"at its own variant {args.own} the copy failed {failed}:\n{said[-3000:]}")
    failed, passed, said = host_run(args.grader, args.other)
    lost = [c for c in failed if c in predictions]
    if not lost:
        problems.append(f"at variant {args.other} the copy lost no prediction check:\n"
                        + said[-3000:])
    if set(failed) - predictions:
        problems.append(f"at variant {args.other} the copy failed checks that grade no "
                        f"prediction: {sorted(set(failed) - predictions)}")
    for p in problems:
        print("PROBLEM: " + p)
    if problems:
        return 1
    print(f"copied answers of variant {args.own}: " + (
        f"they lose {len(own_lost)} prediction check(s) there too, graded on fresh cases"
        if own_lost else "every host check passes there") + f"; at variant {args.other} they "
        f"lose {len(lost)} prediction check(s): {'; '.join(lost)}")
    return copying_earns(args, set(own_lost), {c for c in passed if c in predictions})


def earned(copied, graded, rules):
    """The checks of `graded` (a variant's cases) that a table of `copied` (another's) passes:
    those not graded as rules whose every case the table answers with the reference's number."""
    table = {(d, c): a for _, _, d, c, a in copied if d}
    checks = {row[0] for row in graded if row[2]} - rules
    return {check for check in checks
            if all(table.get((d, c)) == a for name, _, d, c, a in graded if name == check)}


def copying_earns(args, rules, passed_at_other):
    """What copying earns over a class of args.pairs students (see the top of this file)."""
    own = graded_cases(args.grader, args.own)
    chapter = next((f for f in manifest.chapters(ROOT) if own and own[0][0][2:4] == f[:2]), None)
    if chapter is None:
        print("PROBLEM: the judge's graded cases name no chapter of the workbook")
        return 1
    # What a table can answer: the host predictions, and any host check graded on listed cases.
    listed = {row[0] for row in own if row[2]}
    points = {c.name: c.points for c in manifest.load(ROOT, chapter).checks
              if c.mode == "host" and (c.kind == "prediction" or c.name in listed)}
    computed = earned(own, graded_cases(args.grader, args.other), rules) & set(points)
    if computed != passed_at_other & set(points):
        print(f"PROBLEM: at variant {args.other} the copy passed "
              f"{sorted(passed_at_other & set(points))}, the measure earns it {sorted(computed)}")
        return 1
    total = sum(points.values())
    if not args.pairs or not total:
        return 0
    class_ = [graded_cases(args.grader, variants.derive(CLASS_SECRET, f"student{i:03d}"))
              for i in range(args.pairs)]
    earns = {"classmate": [earned(class_[i - 1], c, rules) for i, c in enumerate(class_)],
             "revealed": [earned(c, c, rules) for c in class_]}
    mean = {k: sum(sum(points.get(n, 0) for n in e) for e in v) / total / len(v)
            for k, v in earns.items()}
    numbers = sorted(set().union(*earns["revealed"]) & set(points))
    print(f"over {len(class_)} students, of the {manifest.number(total)} host points a table "
          f"could answer: a classmate's answers earn {100 * mean['classmate']:.1f}% on average, "
          f"a table of one's own variant's numbers (as WORKBOOK_REVEAL=1 shows them) "
          f"{100 * mean['revealed']:.1f}%" + (f" (graded as numbers: {'; '.join(numbers)})"
                                               if numbers else " (rules on fresh cases)"))
    wrong = [f"{route}: {100 * mean[route]:.1f}%" for route in mean
             if mean[route] > MOST_COPIED + 1e-9]
    for w in wrong:
        print(f"PROBLEM: what copying earns, {w}, above the {100 * MOST_COPIED:.0f}% it may earn")
    return 1 if wrong else 0


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make")
    for option in ("--grader", "--variant", "--solution", "--interface", "--namespace", "--out"):
        m.add_argument(option, required=True)
    j = sub.add_parser("judge")
    for option in ("--grader", "--own", "--other"):
        j.add_argument(option, required=True)
    j.add_argument("--pairs", type=int, default=100, help="the class's size (0: no measure)")
    args = parser.parse_args()
    return make(args) if args.command == "make" else judge(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
