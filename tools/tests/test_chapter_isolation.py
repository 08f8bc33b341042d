#!/usr/bin/env python3
"""A chapter lives in its own folders: no shared file of the workbook names a chapter.

    test_chapter_isolation.py SOURCE_ROOT

For every chapter NN_slug, its folder name and its suite `chNN` may appear only in
chapters/NN_slug/, solutions/NN_slug/, grader/NN_slug/, in other chapters' folders (which build
on earlier ones), in measurements/, in docs/ and in the README's chapter table. Anywhere else
(common/, grader/harness/, grader/transpose/, grader/tools/, tools/, the build files, CI) a
chapter's name is a sign that adding or changing a chapter would touch shared files.
"""
import os
import re
import sys

root = sys.argv[1]
chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                  if re.fullmatch(r"\d\d_[a-z0-9_]+", d))
names = re.compile(r"\b(" + "|".join(["ch" + c[:2] for c in chapters] + chapters) + r")\b")
allowed_top = {"chapters", "solutions", "measurements", "docs", "README.md"}
problems = []
for folder, dirs, files in os.walk(root):
    rel = os.path.relpath(folder, root)
    parts = [] if rel == "." else rel.split(os.sep)
    if parts and (parts[0] in allowed_top or parts[0].startswith((".git", "build"))
                  or (parts[0] == "grader" and len(parts) > 1 and re.match(r"\d\d_", parts[1]))):
        dirs[:] = []
        continue
    for name in files:
        if not parts and name in allowed_top or name.startswith("ci-"):
            continue
        path = os.path.join(folder, name)
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            found = names.search(line)
            if found:
                problems.append(f"{os.path.relpath(path, root)}:{number}: names chapter "
                                f"'{found.group(1)}': {line.strip()[:100]}")
for p in problems:
    print(p)
print(f"{len(chapters)} chapters; {len(problems)} mentions in shared files")
sys.exit(1 if problems or not chapters else 0)
