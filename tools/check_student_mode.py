#!/usr/bin/env python3
"""Checks a student-mode test log: every chapter's checks must fail, none may pass.

    check_student_mode.py BUILD/meson-logs/testlog.json

With the skeletons as shipped, each chapter's host checks must FAIL and its GPU checks must FAIL
(or SKIP where there is no GPU). A check that passes, crashes or times out means a skeleton or a
grader is wrong. Prints one line per chapter test and exits 1 on any problem.
"""
import json
import re
import sys

results = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
for r in results:
    # meson writes no suites into the log, only into the test's name:
    # 1.0 "project:ch01+host / ch01 host checks", newer "ch01+host - project:ch01 host checks".
    name = r["name"]
    if " / " in name and ":" in name.split(" / ")[0]:
        suites = name.split(" / ")[0].split(":")[-1]
    else:
        suites = name.split(" - ")[0]
    r["suite"] = suites.split("+")
chapter_tests = [r for r in results if any(re.fullmatch(r"ch\d\d", s) for s in r["suite"])]
problems = 0
for r in chapter_tests:
    allowed = {"FAIL"} if "host" in r["suite"] else {"FAIL", "SKIP"}
    ok = r["result"] in allowed
    problems += not ok
    print(f"  {'ok ' if ok else 'BAD'} {r['name']}: {r['result']}"
          f"{'' if ok else ' (a skeleton must fail its grader)'}")
if not chapter_tests:
    print("no chapter tests in the log")
    sys.exit(1)
print(f"student mode: {len(chapter_tests) - problems} of {len(chapter_tests)} chapter checks "
      f"fail as they must")
sys.exit(1 if problems else 0)
