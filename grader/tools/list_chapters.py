#!/usr/bin/env python3
"""Prints the workbook's chapters (folders NN_slug under chapters/), one per line, in order.

A chapter needs its grader folder, and in solution mode its solution folder; a missing one is an
error that names the folder, so that a half-added chapter cannot silently drop out of the build.
A workbook handed out without solutions/ builds in student mode.

    list_chapters.py SOURCE_ROOT student|solution
"""
import os
import re
import sys

root, mode = sys.argv[1], sys.argv[2]
chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                  if re.fullmatch(r"\d\d_[a-z0-9_]+", d))
for chapter in chapters:
    for part in ("solutions", "grader") if mode == "solution" else ("grader",):
        if not os.path.isdir(os.path.join(root, part, chapter)):
            sys.exit(f"chapter {chapter} has no folder {part}/{chapter}")
print("\n".join(chapters))
