#!/usr/bin/env python3
"""Writes the H200 cases that the bank model in the browser shows beside the model's answer
(tools/student/browser/h200-counted-cases.tsv, which the hand-out ships): every request that
validate_bank_model measured on the H200 (the committed measurements), less every request that
asks what an exercise grades.

    tools/maintainer/make_counted_cases.py SOLUTION_BUILD           write the file
    tools/maintainer/make_counted_cases.py SOLUTION_BUILD --check   exit 1 unless it is up to date

SOLUTION_BUILD is a build of every chapter in solution mode (meson setup -Dkernels=solution).
It runs every chapter's `<grader> lesson` with WORKBOOK_WRITE_GRADED_REQUESTS set, which writes
out what the chapter grades; which measured requests that leaves out, and why: "The browser page
counts no graded request" in docs/instructors/maintaining.md.

With --check, a build that lacks a chapter exits 77 (skipped), saying which.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
import manifest  # noqa: E402
MEASURED = ["smem-cases.tsv", "reference-smem-cases.tsv", "reference-smem-cases-random.tsv"]
MEASURED_DIR = os.path.join("tools", "maintainer", "measurements", "h200")
COUNTED = os.path.join("tools", "student", "browser", "h200-counted-cases.tsv")


def lanes_of(op):
    """The lanes a request of `op` reads: 8 per matrix for ldmatrix, else all 32."""
    return 8 * int(op[-1]) if op.startswith("ldmatrix.x") else 32


def request_of(width, op, addresses):
    """A request as the rule compares it: (width, op, addresses), -1 for every lane that takes
    no part (inactive, or past an ldmatrix's matrices)."""
    count = lanes_of(op)
    return (int(width), op, tuple(int(a) if t < count else -1 for t, a in enumerate(addresses)))


def same_question(a, b):
    """True when requests `a` and `b` are the same instruction with the same lanes, at addresses
    that differ by one whole number of 4-byte words (128-byte lines for cp.async)."""
    if a[0] != b[0] or a[1] != b[1]:
        return False
    unit = 128 if a[1].startswith("cp.async") else 4
    shift = None
    for x, y in zip(a[2], b[2]):
        if (x == -1) != (y == -1):
            return False
        if x == -1:
            continue
        if shift is None:
            shift = y - x
            if shift % unit:
                return False
        elif y - x != shift:
            return False
    return True


def read_case_lines(path):
    """(line number, cells) of every case line of a case file with its costs."""
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("#") or not line.strip():
            continue
        cells = line.rstrip("\n").split("\t")
        if len(cells) != 6:
            sys.exit(f"{path}:{number}: {len(cells)} tab-separated fields, not 6")
        yield number, cells


def measured_cases():
    """[(name, request, wavefronts, conflicts, source)] of the committed H200 measurements, each
    request once (a request measured twice must have been counted the same)."""
    cases, seen = [], {}
    for file in MEASURED:
        path = os.path.join(ROOT, MEASURED_DIR, file)
        for number, (name, width, op, wavefronts, conflicts, addresses) in read_case_lines(path):
            request = request_of(width, op, addresses.split())
            where = f"{MEASURED_DIR}/{file}:{number}"
            if request in seen:
                first = seen[request]
                if (first[2], first[3]) != (int(wavefronts), int(conflicts)):
                    sys.exit(f"{where}: {name} was counted {wavefronts}, {conflicts}, and as "
                             f"{first[0]} ({first[4]}) {first[2]}, {first[3]}")
                continue
            case = (name, request, int(wavefronts), int(conflicts), where)
            seen[request] = case
            cases.append(case)
    names = [c[0] for c in cases]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        sys.exit(f"make_counted_cases.py: two measured requests share a name: {', '.join(twice)}")
    return cases


def graded_requests(build):
    """{chapter id: [request]}: what every chapter's lesson checks say its exercises grade."""
    graders = {c: os.path.join(build, f"ch{c[:2]}_{c[3:]}_grader") for c in manifest.chapters(ROOT)}
    missing = [c for c, g in graders.items() if not os.access(g, os.X_OK)]
    if missing:
        return None, missing
    graded = {}
    with tempfile.TemporaryDirectory() as folder:
        for chapter, grader in graders.items():
            listing = os.path.join(folder, chapter + ".tsv")
            env = dict(os.environ, WORKBOOK_WRITE_GRADED_REQUESTS=listing)
            run = subprocess.run([grader, "lesson"], env=env, capture_output=True, text=True)
            if not os.path.isfile(listing):
                sys.exit(f"make_counted_cases.py: {grader} lesson wrote no graded requests "
                         f"(exit {run.returncode}):\n{run.stdout[-2000:]}")
            requests = []
            for line in open(listing, encoding="utf-8"):
                if line.startswith("#") or not line.strip():
                    continue
                cells = line.rstrip("\n").split("\t")
                requests.append(request_of(cells[1], cells[2], cells[5].split()))
            graded["ch" + chapter[:2]] = requests
    return graded, []


def counted_file(cases, graded):
    """The file's text, and how many measured cases were left out."""
    kept, left_out = [], 0
    every_graded = [r for requests in graded.values() for r in requests]
    by_instruction = {}
    for r in every_graded:
        by_instruction.setdefault((r[0], r[1]), []).append(r)
    for name, request, wavefronts, conflicts, _ in cases:
        if any(same_question(request, g) for g in by_instruction.get(request[:2], [])):
            left_out += 1
            continue
        kept.append((name, request, wavefronts, conflicts))
    lines = [
        "# The H200 cases of the bank model in the browser (build/tools/bank_model.html):",
        "# what validate_bank_model counted on an NVIDIA H200 through its hardware counters",
        "# (wavefronts, and Nsight Compute's bank conflicts, per request) for the workbook's cases",
        f"# and the shared H200 cases. {len(kept)} requests: every one measured",
        f"# ({MEASURED_DIR}/{MEASURED[0]}, {MEASURED[1]} and",
        f"# {MEASURED[2]}) less the {left_out} that ask what an exercise grades",
        "# (the graded request, or the same one at addresses shifted by whole words) for",
        "# self-study, a class variant or official grading's hidden checks. Written by",
        "# tools/maintainer/make_counted_cases.py; do not edit.",
        "# name\twidth_bytes\top\twavefronts\tncu_bank_conflicts\taddresses (lane 0 first; -1 = "
        "inactive)",
    ]
    for name, (width, op, addresses), wavefronts, conflicts in kept:
        lines.append(f"{name}\t{width}\t{op}\t{wavefronts}\t{conflicts}\t" +
                     " ".join(str(a) for a in addresses))
    return "\n".join(lines) + "\n", len(kept), left_out


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    if len(args) != 1 or not os.path.isdir(args[0]):
        sys.exit(__doc__)
    graded, missing = graded_requests(os.path.abspath(args[0]))
    if missing:
        message = (f"make_counted_cases.py: {args[0]} has no solution-mode grader of "
                   f"{', '.join(missing)}; what the file leaves out comes from every chapter")
        if check:
            print(message + ": not checked")
            return 77
        sys.exit(message)
    text, kept, left_out = counted_file(measured_cases(), graded)
    path = os.path.join(ROOT, COUNTED)
    if check:
        committed = open(path, encoding="utf-8").read() if os.path.isfile(path) else ""
        if committed != text:
            print(f"{COUNTED} is not what make_counted_cases.py writes from the committed "
                  f"measurements and the graded requests ({kept} cases, {left_out} left out): "
                  f"run tools/maintainer/make_counted_cases.py {args[0]}")
            return 1
        print(f"{COUNTED} is up to date: {kept} H200 cases, {left_out} left out as graded "
              f"(of {sum(len(r) for r in graded.values())} graded requests of "
              f"{len(graded)} chapters)")
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {COUNTED}: {kept} H200 cases, {left_out} left out as graded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
