#!/usr/bin/env python3
"""Reads meson's test log (BUILD/meson-logs/testlog.json): the one parser of it that CI, the
student-mode check and the GPU suite's timing share; and, for the checks that run a build's
graders, the source folder a build folder was configured from (source_root).

    meson_testlog.py counts TESTLOG_JSON          prints "PASSED FAILED SKIPPED"
    meson_testlog.py result TESTLOG_JSON NAME     prints test NAME's result and its output's
                                                  last line; exit 0 only when it passed
    meson_testlog.py student-mode TESTLOG_JSON    a student-mode build's log: exit 0 only when
                                                  every chapter's checks fail (student_mode)

As a module: read(path) gives one Test per line of the log; source_root(build) the build's
source folder (SystemExit, saying why, for a folder that is not a meson build).
"""
import json
import os
import re
import sys
from dataclasses import dataclass


@dataclass
class Test:
    name: str          # the test's own name, "ch42 host checks"
    suites: list       # its suites, ["ch42", "host"]
    result: str        # "OK", "FAIL", "SKIP", "TIMEOUT", "ERROR", ...
    duration: float    # seconds
    stdout: str = ""   # what it printed (meson's log holds its standard output)

    def in_suite(self, suite):
        return suite in self.suites

    @property
    def chapter(self):
        """The chapter suite ("ch42") the test belongs to, or None."""
        return next((s for s in self.suites if re.fullmatch(r"ch\d\d", s)), None)


def source_root(build):
    """The source folder of the meson build folder `build` (meson-info/meson-info.json)."""
    try:
        with open(os.path.join(build, "meson-info", "meson-info.json")) as f:
            return json.load(f)["directories"]["source"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"{build}: not a meson build folder ({e})")


def parse_name(full):
    """Splits meson's full test name into (suites, name). meson writes no suites into the log,
    only into the name: 1.0 "project:ch42+host / ch42 host checks", newer
    "ch42+host - project:ch42 host checks"."""
    if " / " in full and ":" in full.split(" / ")[0]:
        head, name = full.split(" / ", 1)
        suites = head.split(":")[-1]
    else:
        suites, rest = full.split(" - ", 1)
        name = rest.split(":", 1)[-1]
    return suites.split("+"), name.strip()


def read(path):
    tests = []
    with open(path) as log:
        for line in log:
            if not line.strip():
                continue
            row = json.loads(line)
            suites, name = parse_name(row["name"])
            tests.append(Test(name, suites, row["result"], float(row.get("duration", 0)),
                              row.get("stdout") or ""))
    return tests


def counts(tests):
    ok = sum(t.result in ("OK", "EXPECTEDFAIL") for t in tests)  # a should_fail test that failed
    skipped = sum(t.result == "SKIP" for t in tests)
    return ok, len(tests) - ok - skipped, skipped


def result(tests, name):
    """(result, last line of its output) of the test called `name`, or None."""
    for t in tests:
        if t.name == name:
            lines = t.stdout.strip().splitlines()
            return t.result, lines[-1] if lines else ""
    return None


def student_mode(tests):
    """With the skeletons as shipped, each chapter's host checks must FAIL and its GPU checks
    must FAIL (or SKIP where there is no GPU): a check that passes, crashes or times out means a
    skeleton or a grader is wrong. Prints one line per chapter test; whether all is well."""
    chapter_tests = [t for t in tests if t.chapter and (t.in_suite("host") or t.in_suite("gpu"))]
    problems = 0
    for t in chapter_tests:
        ok = t.result in ({"FAIL"} if t.in_suite("host") else {"FAIL", "SKIP"})
        problems += not ok
        print(f"  {'ok ' if ok else 'BAD'} {t.name}: {t.result}"
              f"{'' if ok else ' (a skeleton must fail its grader)'}")
    print(f"student mode: {len(chapter_tests) - problems} of {len(chapter_tests)} chapter checks "
          f"fail as they must" if chapter_tests else "no chapter tests in the log")
    return bool(chapter_tests) and not problems


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "student-mode":
        sys.exit(0 if student_mode(read(sys.argv[2])) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "counts":
        print(*counts(read(sys.argv[2])))
    elif len(sys.argv) == 4 and sys.argv[1] == "result":
        found = result(read(sys.argv[2]), sys.argv[3])
        if found is None:
            print(f"{sys.argv[3]}: not in {sys.argv[2]}")
            sys.exit(1)
        print(f"{found[0]}: {found[1]}")
        sys.exit(0 if found[0] == "OK" else 1)
    else:
        sys.exit(__doc__)
