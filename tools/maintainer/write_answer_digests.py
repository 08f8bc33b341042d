#!/usr/bin/env python3
"""Rewrites the chapters' grader/NN_slug/answer_digests.hpp from their answer keys: runs each
solution-mode grader's answer key (`GRADER lesson [digests]`) with WORKBOOK_WRITE_ANSWER_DIGESTS
set. `ninja -C <solution build> answer-digests` runs it; rebuild and commit what it wrote.

    write_answer_digests.py GRADER [GRADER ...]
"""
import os
import subprocess
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
env = dict(os.environ, WORKBOOK_WRITE_ANSWER_DIGESTS="1")
status = 0
for grader in sys.argv[1:]:
    run = subprocess.run([grader, "lesson", "[digests]"], env=env, capture_output=True, text=True)
    wrote = [l.strip() for l in run.stdout.splitlines() if "wrote " in l]
    print(f"{os.path.basename(grader)}: " + ("; ".join(wrote) if wrote else "wrote nothing"))
    if not wrote:
        print(run.stdout[-2000:] + run.stderr[-2000:])
        status = 1
sys.exit(status)
