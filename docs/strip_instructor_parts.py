#!/usr/bin/env python3
"""Doxygen's input filter for the students' site: prints a Markdown page without its
instructors' parts (the blocks between `<!-- instructors -->` and `<!-- /instructors -->`),
as the hand-out's README is.

    strip_instructor_parts.py PAGE.md
"""
import re
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
# Blank lines keep their places, so that Doxygen's line numbers still name the source's lines.
sys.stdout.write(re.sub(r"<!-- instructors -->.*?<!-- /instructors -->",
                        lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S))
