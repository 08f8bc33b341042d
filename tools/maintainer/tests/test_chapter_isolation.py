#!/usr/bin/env python3
"""A chapter lives in its own folders: no shared file of the workbook names a chapter, and no
chapter names a later one.

    test_chapter_isolation.py SOURCE_ROOT

For every chapter NN_slug, its folder name and its suite `chNN` may appear only in
chapters/NN_slug/, grader/NN_slug/ and solutions/NN_slug/, in later chapters' folders (which
build on earlier ones), in the measurements (tools/maintainer/measurements/), in docs/ and in
the README's chapter table. Anywhere else (common/, grader/harness/, grader/transpose/,
grader/tools/, tools/, the build files, CI) a chapter's name is a sign that adding or changing a
chapter would touch shared files. And a chapter's folders may name earlier chapters only: a
chapter that reads a later one's files (its lesson, its grader) cannot be checked, changed or
handed out on its own.
"""
import os
import re
import subprocess
import sys

root = sys.argv[1]
# Files git ignores (a maintainer's scratch folders, build output) are nobody's hand-out: where
# the source root is a git checkout, only its tracked and not-ignored files are read.
try:
    listed = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others",
                             "--exclude-standard", "-z"], capture_output=True, check=True)
    kept = {os.path.normpath(os.path.join(root, f.decode()))
            for f in listed.stdout.split(b"\0") if f}
except (OSError, subprocess.CalledProcessError):
    kept = None
chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                  if re.fullmatch(r"\d\d_[a-z0-9_]+", d))
names = re.compile(r"\b(" + "|".join(["ch" + c[:2] for c in chapters] + chapters) + r")\b")
folder_names = re.compile(r"\b(" + "|".join(chapters) + r")\b")
allowed_top = {"docs", "README.md"}
chapter_trees = {"chapters", "grader", "solutions"}
problems = []


def number_of(name):
    return int(name[2:4]) if name.startswith("ch") and not name[2:3] == "_" else int(name[:2])


for folder, dirs, files in os.walk(root):
    rel = os.path.relpath(folder, root)
    parts = [] if rel == "." else rel.split(os.sep)
    if parts and (parts[0] in allowed_top or parts[0].startswith((".git", "build"))
                  or parts[:3] == ["tools", "maintainer", "measurements"]):
        dirs[:] = []
        continue
    # A chapter's own folder: it may name itself and earlier chapters, never a later one.
    # chapters/, grader/ and solutions/ themselves hold shared files, checked as any other.
    own = None
    if parts and parts[0] in chapter_trees and len(parts) > 1 and re.match(r"\d\d_", parts[1]):
        own = int(parts[1][:2])
    for name in files:
        if (not parts and name in allowed_top) or name.startswith("ci-"):
            continue
        path = os.path.join(folder, name)
        if kept is not None and os.path.normpath(path) not in kept:
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for line_number, line in enumerate(text.splitlines(), 1):
            where = f"{os.path.relpath(path, root)}:{line_number}"
            if own is None:
                found = names.search(line)
                if found:
                    problems.append(f"{where}: names chapter '{found.group(1)}': "
                                    f"{line.strip()[:100]}")
                continue
            for found in folder_names.finditer(line):
                if number_of(found.group(1)) > own:
                    problems.append(f"{where}: chapter {own:02d} names the later chapter "
                                    f"'{found.group(1)}': {line.strip()[:100]}")
for p in problems:
    print(p)
print(f"{len(chapters)} chapters; {len(problems)} mentions out of place")
sys.exit(1 if problems or not chapters else 0)
