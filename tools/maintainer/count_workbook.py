#!/usr/bin/env python3
"""Counts the workbook's size the way its reviews measure it, and holds it to its limits.

    count_workbook.py SOURCE_ROOT [--check]

- files: the files git tracks;
- where a check's name is written: for each check of every chapter's manifests, the
  hand-written files that hold its name (generated files and data are not hand-written);
- grading per content: the lines of grader/, solutions/ and tools/ (the graders and their
  proof, less data and generated files) for each line a student reads or edits (the lessons,
  interfaces and skeletons of chapters/, less their figures), and by folder, so that what
  a cut would buy shows at a glance;
- files named reference_probes (kernels written again beside the reference solution).

With --check it exits 1, saying which, when a count is over its limit (LIMITS). Where the
workbook has not reached a target yet, its limit is the ceiling it has reached (CEILINGS): a
change may bring it down, never up; lower the ceiling with the count when it does.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "grader", "tools"))
import manifest  # noqa: E402

TARGETS = {"files": 560, "files per check name": 2, "grading lines per content line": 6.5,
           "reference_probes files": 0}
CEILINGS = {"grading lines per content line": 8.87}
LIMITS = {**TARGETS, **CEILINGS}
# Data and generated files: neither hand-written code nor text a student reads.
DATA = re.compile(r"\.(tsv|svg|png|json|ipynb)$|/measurements/|/tests/data/|"
                  r"answer_digests\.hpp$|/variant0_cases\.tsv$")
GRADING = ("grader/", "solutions/", "tools/")
CONTENT = re.compile(r"^chapters/\d\d_[a-z0-9_]+/([^/]+\.cuh|[^/]+_exercise\.cu|README\.md)$")


def tracked(root):
    listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                            check=True).stdout
    return sorted(f.decode() for f in listed.split(b"\0") if f)


def lines_of(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def counts(root):
    files = tracked(root)
    texts = {}
    for f in files:
        if DATA.search(f):
            continue
        try:
            with open(os.path.join(root, f), encoding="utf-8") as handle:
                texts[f] = handle.read()
        except (UnicodeDecodeError, OSError):
            pass
    names = [c.name for folder in manifest.chapters(root)
             for c in manifest.load(root, folder).checks]
    holders = {n: sorted(f for f, text in texts.items() if n in text) for n in names}
    areas = {}  # grading lines by folder: grader/, solutions/ and each audience's tools/
    for f in files:
        if f.startswith(GRADING) and not DATA.search(f):
            parts = f.split("/")
            area = "/".join(parts[:2 if parts[0] == "tools" and len(parts) > 2 else 1]) + "/"
            areas[area] = areas.get(area, 0) + lines_of(os.path.join(root, f))
    grading = sum(areas.values())
    content = sum(lines_of(os.path.join(root, f)) for f in files if CONTENT.match(f))
    return {
        "files": len(files),
        "files per check name": max((len(h) for h in holders.values()), default=0),
        "grading lines per content line": round(grading / content, 2),
        "reference_probes files": sum("reference_probes" in os.path.basename(f) for f in files),
    }, {"checks": len(names), "grading lines": grading, "content lines": content, "areas": areas,
        "most written names": sorted(holders.items(), key=lambda kv: -len(kv[1]))[:3]}


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--check") or \
            not os.path.isdir(os.path.join(sys.argv[1], "chapters")):
        sys.exit(f"{__doc__}\n(the first argument must be the workbook's source root)")
    root = sys.argv[1]
    measured, detail = counts(root)
    over = []
    for key, limit in LIMITS.items():
        target = f", target {TARGETS[key]}" if key in CEILINGS else ""
        print(f"{key}: {measured[key]} (limit {limit}{target})")
        if measured[key] > limit:
            over.append(key)
    print(f"({detail['checks']} checks; {detail['grading lines']} grading lines, "
          f"{detail['content lines']} content lines)")
    for area, n in sorted(detail["areas"].items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d} grading lines in {area} ({n / detail['content lines']:.2f} a content line)")
    for name, where in detail["most written names"]:
        print(f"  {len(where)} files: {name}: {', '.join(where)}")
    if over and "--check" in sys.argv:
        print("over the limit: " + ", ".join(over))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
