#!/usr/bin/env python3
"""Doxygen's input filter for the instructors' pages: prints a page with the line
`<!-- thresholds table -->` replaced by every chapter's thresholds and their evidence, drawn from
the manifests and the committed measurements (grader/tools/manifest_views.py), so that the site
shows the table without a copy of it committed anywhere.

    fill_instructor_tables.py PAGE.md
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
import manifest_views  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__)
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
marker = "<!-- thresholds table -->"
if marker in text:
    text = text.replace(marker, manifest_views.threshold_table(ROOT))
sys.stdout.write(text)
