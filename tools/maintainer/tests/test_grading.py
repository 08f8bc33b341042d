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
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
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


def catch2_attribute(text):
    """`text` as Catch2's XML writer puts it in an attribute: '<', '&' and '"' escaped, '>' not."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


# Every check of every chapter, named as Catch2 writes it, is read back by its name (chapter 10's
# "Swizzle<B, M, S>" once went unreported: its '>' ended the tag for a simpler pattern).
names = []
for chapter in sorted(os.listdir(os.path.join(root, "grader"))):
    if os.path.isfile(os.path.join(root, "grader", chapter, "points.tsv")):
        names += [c.name for c in scoring.load_points(root, chapter)]
expect(any(">" in n for n in names) or len(names) == 0, "some check's name holds a '>'")
names.append('a "quoted" <b> & c')
for wrapper in ("<Catch name=\"g\"><Group name=\"g\">{}</Group></Catch>",
                "<Catch2TestRun name=\"g\">{}</Catch2TestRun>"):
    cases = "".join(f'<TestCase name="{catch2_attribute(n)}" tags="[host]" filename="a>b.cpp" '
                    f'line="1"><Failure filename="a>b.cpp" line="2">no &lt;</Failure>'
                    f'<OverallResult success="{str(i % 2 == 0).lower()}"/></TestCase>'
                    for i, n in enumerate(names))
    r = catch_xml.parse(wrapper.format(cases))
    missing = [n for n in names if n not in r]
    expect(not missing, f"checks not read back by name: {missing}")
    wrong = [n for i, n in enumerate(names) if n in r and r[n][0] != ("passed" if i % 2 == 0
                                                                      else "failed")]
    expect(not wrong, f"checks read back with the wrong status: {wrong}")
    expect(all(r[n][1].strip() == "no <" for i, n in enumerate(names) if i % 2 and n in r),
           "a failure's message is read back")

with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "grader", "01_x"))
    os.makedirs(os.path.join(d, "solutions", "01_x"))
    path = os.path.join(d, "grader", "01_x", "points.tsv")
    with open(path, "w") as f:
        f.write("# comment\nhost\t2\tfirst\tp1\ngpu\t3\tsecond\tp2\nhost\t0\tguard\tp3\n")
    points = scoring.load_points(d, "01_x")
    expect([(c.mode, c.points, c.name, c.hidden) for c in points] ==
           [("host", 2.0, "first", False), ("gpu", 3.0, "second", False),
            ("host", 0.0, "guard", False)], f"points read: {points}")
    hidden_path = os.path.join(d, "solutions", "01_x", "hidden_points.tsv")
    with open(hidden_path, "w") as f:
        f.write("host\t1\thidden one\twhen\n")
    with_hidden = scoring.load_points(d, "01_x")
    expect(len(with_hidden) == 4 and with_hidden[3].hidden and with_hidden[3].name == "hidden one",
           f"hidden points read: {with_hidden}")
    for bad in ("host\ttwo\tx\ty\n", "both\t1\tx\ty\n", "host\t1\tx\n",
                "host\t1\tx\ty\nhost\t2\tx\ty\n", "host\t-1\tx\ty\n", "host\t1\t\ty\n"):
        with open(path, "w") as f:
            f.write(bad)
        try:
            scoring.load_points(d, "01_x")
            problems.append(f"a bad points line is accepted: {bad!r}")
        except scoring.PointsError as e:
            expect(path in str(e), f"the error names the file: {e}")
    with open(path, "w") as f:
        f.write("host\t1\thidden one\tclash\n")
    try:
        scoring.load_points(d, "01_x")
        problems.append("a hidden check named like a check of points.tsv is accepted")
    except scoring.PointsError:
        pass

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

# A hidden check (official grading's) is scored like any other, and marked in every output.
hidden_tests = scoring.score_chapter("01_x", with_hidden, ["host"],
                                     {"host": {"hidden one": ("failed", "a hidden case")}}, {})
expect([t["hidden"] for t in hidden_tests] == [False, False, True],
       f"the hidden check is marked: {hidden_tests}")
hidden_result = {"submission": "h", "mode": "host", "score": 0.0, "max_score": 3.0,
                 "seconds": 1.0, "notes": [], "ignored": [], "tests": hidden_tests}
expect("[hidden check" in scoring.report(hidden_result), "the report marks a hidden check")
expect("hidden" in scoring.gradescope(hidden_result)["tests"][2]["tags"],
       "results.json tags a hidden check")
expect(scoring.validate_gradescope(scoring.gradescope(hidden_result)) == [],
       "results.json with a hidden check is still Gradescope's")
expect(".hidden" in scoring.junit(hidden_result), "the JUnit class names a hidden check")

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
