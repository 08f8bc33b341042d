#!/usr/bin/env python3
"""Tests of check_first_screen.py's judgement: a report as the graders print it passes, and each
way a first screen can fail a student is caught (the first failure pushed off the screen, no
hint, a hint twice, a family not collapsed or miscounted, the details missing a failure, a
skip that says too much or too little).

    test_check_first_screen.py SOURCE_ROOT
"""
import os
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools", "maintainer"))
import check_first_screen as first_screen  # noqa: E402
from check_first_screen import Check  # noqa: E402
from scratch_handout import check, finish  # noqa: E402


CHECKS = [Check("ch42 exercise 1: bank_of", ["bank_of(0) returned -1."], ["bytes 0-3 are bank 0."]),
          Check("ch42 exercise 2: passes"),
          Check("ch42 exercise 3: patterns", ["pattern kA is wrong.", "pattern kB is wrong.",
                                              "pattern kC is wrong."], ["use the sizes."])]
GOOD = """ch42 host checks, variant 0 (self-study): 2 of 3 checks failed.

FAILED ch42 exercise 1: bank_of
  bank_of(0) returned -1.
  Hint: bytes 0-3 are bank 0.

FAILED ch42 exercise 3: patterns
  pattern kA is wrong.
  Hint: use the sizes.
  + 2 more failed cases of this check.

==== Summary (host checks) ====
  FAILED   ch42 exercise 1: bank_of
  passed   ch42 exercise 2: passes
  FAILED   ch42 exercise 3: patterns
3 checks: 1 passed, 2 failed, 0 skipped.
Every failure in full, with its pictures and anything your code printed:
  build/feedback/ch42_grader-host.txt
"""
DETAILS = """x.cpp:1: FAILED:
  bank_of(0) returned -1.
x.cpp:2: FAILED:
  pattern kA is wrong.
x.cpp:2: FAILED:
  pattern kB is
  wrong.
x.cpp:2: FAILED:
  pattern kC is wrong.
"""


def problems(report=GOOD, details=DETAILS, checks=CHECKS):
    return first_screen.judge(report, details, checks)


def says(found, text):
    return any(text in p for p in found)


check(problems() == [], f"a good report passes: {problems()}")
check(first_screen.details_path(GOOD) == "build/feedback/ch42_grader-host.txt",
      "the details file named at the end")

pushed = GOOD.replace("\n\nFAILED ch42 exercise 1", "\n" + "a line of the variant\n" * 22 +
                      "\nFAILED ch42 exercise 1")
check(says(problems(pushed), "does not give its reason"), "a first failure below row 24")
wide = GOOD.replace("2 of 3 checks failed.", "2 of 3 checks failed." + "x" * 23 * 80)
check(says(problems(wide), "does not name the first failed check"),
      "a long first line takes as many rows as it fills")
check(says(problems(GOOD.replace("  Hint: bytes 0-3 are bank 0.\n", "")), "no hint or what to do"),
      "a first failure without a hint")
check(problems(GOOD.replace("  Hint: bytes 0-3 are bank 0.\n",
                            "  What to do: find the bad access.\n")) == [],
      "a first failure with the harness's own advice passes")
twice = GOOD.replace("  Hint: use the sizes.", "  Hint: bytes 0-3 are\n        bank 0.")
check(says(problems(twice), "is printed 2 times"), "a hint printed twice (wrapped otherwise)")
check(says(problems(GOOD.replace("  + 2 more", "  pattern kB is wrong.\n  + 2 more")),
           "shows more than its first case"), "a family shown case by case")
check(says(problems(GOOD.replace("+ 2 more failed cases", "+ 1 more failed case")),
           "its block counts"), "a family miscounted")
check(says(problems(GOOD.replace("  + 2 more failed cases of this check.\n", "")),
           "its block counts"), "a family without its count")
doubled = GOOD.replace("==== Summary", "FAILED ch42 exercise 3: patterns\n  again\n\n==== Summary")
check(says(problems(doubled), "is reported in 2 blocks"), "a check reported twice")
check(says(problems(details=DETAILS.replace("pattern kC is wrong.", "")), "lacks 1 failures"),
      "details missing a failure")
check(says(problems(details=DETAILS + "y.cpp:9: FAILED:\n"), "reports 5 failures"),
      "details with a failure too many")
check(says(problems(details=None), "names no details file"), "no details file")
check(says(problems(checks=[Check("a"), Check("b")]), "no check failed"), "a passing chapter")
# In GPU mode numbers are not compared: a time differs from run to run.
timed = [Check("ch42 exercise 1: bank_of", ["runs at 0.51 of copy."], ["bytes 0-3 are bank 0."])]
timed_report = GOOD.replace("bank_of(0) returned -1.", "runs at 0.53 of copy.")
timed_report = timed_report[:timed_report.index("\nFAILED ch42 exercise 3")]
timed_details = "x.cpp:1: FAILED:\n  runs at 0.53 of copy.\n"
check(first_screen.judge(timed_report + "\n" + GOOD[GOOD.index("Every failure"):], timed_details,
                         timed, numbers=False) == [],
      "in GPU mode a failure timed otherwise in the second run is the same failure")
check(says(first_screen.judge(timed_report, timed_details, timed), "does not give its reason"),
      "with numbers compared, another time is another reason")

SKIP = ("ch42 GPU checks, variant 0 (self-study): skipped, as no usable GPU is here.\n"
        "SKIP: GPU checks not run: no CUDA-capable device is detected\n"
        "The host checks (meson test --suite host) still grade your predictions.\n")
check(first_screen.judge_skip(SKIP) == [], "a short skip passes")
check(says(first_screen.judge_skip(SKIP + "Graded on variant 0\n" * 10), "rows, more than"),
      "a skip behind the variant's cases")
check(says(first_screen.judge_skip(SKIP.replace("SKIP: GPU checks not run: no", "skipped")),
           "does not say why"), "a skip without its reason")
check(first_screen.first_screen("a\n" * 30).count("\n") == 23, "the first screen is 24 rows")

finish("check_first_screen.py: ok")
