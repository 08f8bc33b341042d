#!/usr/bin/env python3
"""Compares what the workbook grades with what it graded at an earlier commit: each chapter's
checks (mode, points, name) and wrong answers (the mode whose checks reject it, name), in order.

    test_graded_inventory.py SOURCE_ROOT --since REV

REV's tree is read from git: its manifests (grader/NN_slug/chapter.ini, solutions/NN_slug/
chapter.ini), or, before the manifests, its points.tsv, hidden_points.tsv and wrong_answers.ini.
Exit 0 when the two lists are equal, 1 with the differences (- at REV, + now), 77 when the
checkout does not hold REV (a shallow clone). CI runs it against the commit before the manifests,
to show that declaring each chapter once changed nothing that is graded.
"""
import configparser
import difflib
import os
import subprocess
import sys
import tarfile
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "grader", "tools"))
import manifest  # noqa: E402


def inventory(tree):
    rows = []
    for folder in manifest.chapters(tree):
        if os.path.isfile(os.path.join(tree, "grader", folder, "chapter.ini")):
            chapter = manifest.load(tree, folder)
            checks = [(c.mode, c.points, c.name) for c in chapter.checks]
            wrong = [(w.mode, w.name) for w in chapter.wrong_answers]
        else:  # the layout before the manifests
            checks, wrong = [], []
            for path in (os.path.join(tree, "grader", folder, "points.tsv"),
                         os.path.join(tree, "solutions", folder, "hidden_points.tsv")):
                if os.path.isfile(path):
                    for line in open(path, encoding="utf-8"):
                        if line.strip() and not line.startswith("#"):
                            mode, points, name = line.split("\t")[:3]
                            checks.append((mode, float(points), name))
            spec = configparser.RawConfigParser()
            spec.optionxform = str
            spec.read(os.path.join(tree, "solutions", folder, "wrong_answers.ini"))
            wrong = [(spec[s]["rejected_by"], s) for s in spec.sections()]
        rows += [f"{folder}\tcheck\t{mode}\t{points:g}\t{name}" for mode, points, name in checks]
        rows += [f"{folder}\twrong answer\t{mode}\t-\t{name}" for mode, name in wrong]
    return rows


if len(sys.argv) != 4 or sys.argv[2] != "--since":
    sys.exit(__doc__)
rev = sys.argv[3]
with tempfile.TemporaryDirectory() as scratch:
    archive = subprocess.run(["git", "-C", root, "archive", "--format=tar", rev, "chapters",
                              "grader", "solutions"], capture_output=True)
    if archive.returncode != 0:
        print(f"SKIP: this checkout does not hold {rev} (a shallow clone?): "
              f"{archive.stderr.decode().strip()}")
        sys.exit(77)
    path = os.path.join(scratch, "tree.tar")
    with open(path, "wb") as f:
        f.write(archive.stdout)
    with tarfile.open(path) as t:
        t.extractall(scratch)
    before = inventory(scratch)
now = inventory(root)
if before != now:
    print(f"what is graded differs from {rev} (- then, + now):")
    print("\n".join(difflib.unified_diff(before, now, rev, "now", lineterm="", n=1)))
    sys.exit(1)
fields = [r.split("\t") for r in now]
checks = [f for f in fields if f[1] == "check"]
print(f"graded as at {rev}: {len(checks)} checks ({sum(f[2] == 'gpu' for f in checks)} on the "
      f"GPU) and {len(fields) - len(checks)} wrong answers "
      f"({sum(f[2] == 'gpu' for f in fields if f[1] != 'check')} rejected on the GPU), each with "
      f"the same mode, points and name, in the same order")
