#!/usr/bin/env python3
"""The grading tool's parts that need no build: Catch2 XML (v2, v3, cut short), points, scores,
the Gradescope fields, which files of a submission count, and the include rule.

    test_grading.py SOURCE_ROOT
"""
import json
import os
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools"))
from grading import catch_xml, scoring, submission  # noqa: E402

problems = []


def expect(condition, what):
    if not condition:
        problems.append(what)


V2 = """<?xml version="1.0" encoding="UTF-8"?>
<Catch name="g" filters="[host]">
  <Group name="g">
    <TestCase name="a &amp; b: passes" tags="[host]" filename="x.cpp" line="1">
      <OverallResult success="true"/>
    </TestCase>
    <TestCase name="fails" tags="[host]" filename="x.cpp" line="2">
      <Failure filename="x.cpp" line="3">
        bank_of(0) returned -1
      </Failure>
      <OverallResult success="false">
        <StdOut>
Hint: bytes 0-3 are bank 0
        </StdOut>
      </OverallResult>
    </TestCase>
    <TestCase name="skips (v2)" tags="[gpu]" filename="x.cpp" line="4">
      <Warning>
        SKIP: hardware counters not checked
      </Warning>
      <OverallResult success="true"/>
    </TestCase>
    <TestCase name="cut short" tags="[host]" filename="x.cpp" line="5">
      <Expression success="true" type="CHECK" filename="x.cpp" line="6">
"""
V3 = """<?xml version="1.0" encoding="UTF-8"?>
<Catch2TestRun name="g" rng-seed="1" catch2-version="3.4.0" filters="[gpu]">
  <TestCase name="skips (v3)" tags="[gpu]" filename="x.cpp" line="1">
    <Skip filename="x.cpp" line="2">
      not run: the GPU context was lost
    </Skip>
    <OverallResult success="true" skips="1"/>
  </TestCase>
  <TestCase name="passes (v3)" tags="[gpu]" filename="x.cpp" line="3">
    <OverallResult success="true" skips="0"/>
  </TestCase>
  <OverallResults successes="1" failures="0" expectedFailures="0" skips="1"/>
</Catch2TestRun>
"""
r = catch_xml.parse(V2)
expect(r.get("a & b: passes") == ("passed", ""), f"v2 pass, entities: {r.get('a & b: passes')}")
expect(r.get("fails", ("",))[0] == "failed" and "bank_of(0) returned -1" in r["fails"][1]
       and "Hint: bytes 0-3" in r["fails"][1], f"v2 failure with its feedback: {r.get('fails')}")
expect(r.get("skips (v2)") == ("skipped", "hardware counters not checked"),
       f"v2 skip through the SKIP: warning: {r.get('skips (v2)')}")
expect("cut short" not in r, "a test case the run did not close is not reported")
r = catch_xml.parse(V3)
expect(r.get("skips (v3)") == ("skipped", "not run: the GPU context was lost"),
       f"v3 skip: {r.get('skips (v3)')}")
expect(r.get("passes (v3)") == ("passed", ""), "v3 pass")
expect(catch_xml.parse("") == {}, "an empty report reports nothing")

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "points.tsv")
    with open(path, "w") as f:
        f.write("# comment\nhost\t2\tfirst\ngpu\t3\tsecond\nhost\t0\tguard\n")
    points = scoring.load_points(path)
    expect(points == [("host", 2.0, "first"), ("gpu", 3.0, "second"), ("host", 0.0, "guard")],
           f"points read: {points}")
    for bad in ("host\ttwo\tx\n", "both\t1\tx\n", "host\t1\n", "host\t1\tx\nhost\t2\tx\n",
                "host\t-1\tx\n"):
        with open(path, "w") as f:
            f.write(bad)
        try:
            scoring.load_points(path)
            problems.append(f"a bad points line is accepted: {bad!r}")
        except scoring.PointsError as e:
            expect(path in str(e), f"the error names the file: {e}")

tests = scoring.score_chapter(
    "01_x", points, ["host"], {"host": {"first": ("passed", ""), "guard": ("failed", "no")}},
    {"host": "the grader exited (status 0) before this check reported"})
expect([t["score"] for t in tests] == [2.0, 0.0], f"host scores: {tests}")
expect(all(t["mode"] == "host" for t in tests), "gpu checks are not scored in host mode")
tests = scoring.score_chapter("01_x", points, ["host", "gpu"], {"host": {}, "gpu": None},
                              {"host": "exited", "gpu": "no usable GPU"})
expect([t["status"] for t in tests] == ["not reported"] * 3 and
       [t["output"] for t in tests] == ["exited", "no usable GPU", "exited"],
       f"a check that did not report scores zero with the reason: {tests}")

result = {"submission": "s", "mode": "host", "score": 2.0, "max_score": 7.0, "seconds": 3.2,
          "notes": ["n"], "ignored": ["README.md"],
          "tests": [dict(t, score=t["max_score"] if i == 0 else 0.0, status="passed" if i == 0
                         else "failed") for i, t in enumerate(tests)]}
result["score"] = sum(t["score"] for t in result["tests"])
g = scoring.gradescope(result)
expect(scoring.validate_gradescope(g) == [], f"our results.json is Gradescope's: "
       f"{scoring.validate_gradescope(g)}")
expect(json.loads(json.dumps(g)) == g, "results.json is plain JSON")
bad = dict(g, max_score=3, tests=[dict(g["tests"][0], status="skipped", points=1)])
found = scoring.validate_gradescope(bad)
expect(any("max_score" in p for p in found) and any("points" in p for p in found)
       and any("status" in p for p in found), f"the validator finds unknown fields: {found}")
row = scoring.csv_row(result, ["01_x", "02_y"])
expect(row[:5] == ["s", "2", "7", "2", "0"], f"gradebook row: {row}")
junit = scoring.junit(result)
expect(junit.count("<testcase") == 3 and junit.count("<failure") == 2, f"JUnit: {junit}")

files = {"workbook/chapters/01_x/x_exercise.cu": b"a", "x_exercise.cu": b"b",
         "workbook/README.md": b"r", "y_exercise.cu": b"c", "notes/z_exercise.cu": b"d"}
found, ignored = submission.exercise_files(files, ["01_x", "02_y"])
expect(found == {"01_x": ("workbook/chapters/01_x/x_exercise.cu", b"a"),
                 "02_y": ("y_exercise.cu", b"c")},
       f"the canonical path wins, a bare file counts: {found}")
expect(sorted(ignored) == ["notes/z_exercise.cu", "workbook/README.md", "x_exercise.cu"],
       f"everything else is ignored and listed: {ignored}")

with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "chapters", "01_x"))
    os.makedirs(os.path.join(d, "common"))
    for name in ("chapters/01_x/x.cuh", "common/util.hpp"):
        open(os.path.join(d, name), "w").close()
    ok = '#include <cstdio>\n#include "chapters/01_x/x.cuh"\n#include "common/util.hpp"\n' \
         '// #include "solutions/01_x/x_exercise.cu"\n'
    expect(submission.include_problems(ok, "01_x", d) == [], "own headers are allowed")
    for bad in ('#include "solutions/01_x/x_exercise.cu"\n',
                '#include "/home/me/workbook/solutions/01_x/x_exercise.cu"\n',
                '#include "chapters/01_x/../../solutions/x.cu"\n',
                '#include "chapters/02_y/y.cuh"\n', '#define F "a"\n#include F\n'):
        expect(submission.include_problems(bad, "01_x", d) != [],
               f"an include that is refused: {bad!r}")

with tempfile.TemporaryDirectory() as d:
    for name in ("b.tar.gz", "a", ".hidden", "c.zip", "notes.txt"):
        p = os.path.join(d, name)
        os.makedirs(p) if name in ("a", ".hidden") else open(p, "w").close()
    expect([submission.submission_id(p) for p in sorted(os.listdir(d))
            if submission.is_submission(os.path.join(d, p))] == ["a", "b", "c"],
           "a class folder's submissions: folders and archives")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("grading: XML v2/v3 and cut short, points, scores, Gradescope fields, submission files, "
      "includes: all as expected")
