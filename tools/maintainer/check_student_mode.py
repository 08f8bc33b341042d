#!/usr/bin/env python3
"""Checks a student-mode test log: every chapter's checks must fail, none may pass.

    check_student_mode.py BUILD/meson-logs/testlog.json

With the skeletons as shipped, each chapter's host checks must FAIL and its GPU checks must FAIL
(or SKIP where there is no GPU). A check that passes, crashes or times out means a skeleton or a
grader is wrong. Prints one line per chapter test and exits 1 on any problem.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meson_testlog  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__)
chapter_tests = [t for t in meson_testlog.read(sys.argv[1])
                 if t.chapter and (t.in_suite("host") or t.in_suite("gpu"))]
problems = 0
for t in chapter_tests:
    allowed = {"FAIL"} if t.in_suite("host") else {"FAIL", "SKIP"}
    ok = t.result in allowed
    problems += not ok
    print(f"  {'ok ' if ok else 'BAD'} {t.name}: {t.result}"
          f"{'' if ok else ' (a skeleton must fail its grader)'}")
if not chapter_tests:
    print("no chapter tests in the log")
    sys.exit(1)
print(f"student mode: {len(chapter_tests) - problems} of {len(chapter_tests)} chapter checks "
      f"fail as they must")
sys.exit(1 if problems else 0)
