#!/usr/bin/env python3
"""The Gradescope autograder's parts that need no build: what a package may hold, the results
of a submission that was not graded, the student id from Gradescope's metadata (missing, empty,
not an id, a group), what a submission folder is graded as, which sandbox grades (the fallback
only where the namespace sandbox cannot be made or is not wanted), and a run_autograder whose
package is damaged (it still writes a results.json that says so). The whole autograder is
tools/maintainer/tests/gradescope_ci.py's (CI).

    test_gradescope.py SOURCE_ROOT
"""
import json
import os
import shutil
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import gradescope, scoring, variants  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, finish  # noqa: E402
from hostile_class import refusal  # noqa: E402


# What a package may hold: the chosen chapters' hidden checks, no solution, every part.
parts = ["setup.sh", "run_autograder", "autograder.json",
         "tool/tools/instructor/gradescope_autograder"]
tree = "pristine/workbook-0123456789ab/workbook/"
expect(gradescope.package_problems(parts + [tree + "solutions/01_x/hidden_checks.cpp",
                                            tree + "chapters/01_x/x_exercise.cu"], ["01_x"]) == [],
       "a package of the hand-out and the hidden checks is accepted")
for bad in (tree + "solutions/01_x/x_exercise.cu", tree + "solutions/02_y/hidden_checks.cpp",
            tree + "solutions/01_x/hidden_checks.cpp/more", tree + ".git/HEAD"):
    expect(gradescope.package_problems(parts + [bad], ["01_x"]) != [], f"refused: {bad}")
expect(any("run_autograder is missing" in p for p in gradescope.package_problems(
    parts[:1] + parts[2:], ["01_x"])), "a package without run_autograder is refused")

# The results of a submission that was not graded: valid, 0, and saying which kind.
checks = {"01_x": [scoring.manifest.Check("first", "a check", "host", 2.0, "function", "it passes")]}
for retry in (True, False):
    data = gradescope.not_graded("the disk is full", retry, checks, "ada", 3.2, "hidden")
    expect(scoring.validate_gradescope(data) == [], f"not graded ({retry}): "
                                                    f"{scoring.validate_gradescope(data)}")
    expect(data["score"] == 0 and data["visibility"] == "visible"
           and data["extra_data"] == {"not_graded": True, "retry": retry,
                                      "reason": "the disk is full"},
           f"not graded ({retry}): score 0, visible, marked: {data}")
    expect(("to be retried" in data["output"]) is retry and "the disk is full" in data["output"],
           f"not graded ({retry}) says which kind, and why: {data['output']}")
    expect(data["tests"][0]["name"].startswith("NOT GRADED: to be retried") is retry,
           f"a result to be retried says so in its first test ({retry})")

# The student id from Gradescope's metadata.
work = tempfile.mkdtemp(prefix="test-gradescope-")
layout = gradescope.Layout(work)


def metadata(data):
    with open(layout.metadata, "w") as f:
        f.write(data if isinstance(data, str) else json.dumps(data))


def user(**fields):
    return {"users": [dict({"email": "ada@example.edu", "id": 7, "name": "Ada"}, **fields)]}


expect(gradescope.student_of(layout, "sid", False) == {}, "no metadata, no variants: no id")
expect("submission_metadata.json is missing" in refusal(
    gradescope.NotGraded, lambda: gradescope.student_of(layout, "sid", True)),
       "no metadata with variants: to retry")
metadata("{not json")
expect("cannot be read" in refusal(gradescope.NotGraded, lambda: gradescope.student_of(
    layout, "sid", True)), "metadata that is not JSON: to retry")
for data, said in (({"users": []}, "names no submitter"), ({}, "names no submitter"),
                   (user(), "has no sid for Ada"), (user(sid=""), "has no sid"),
                   (user(sid="no spaces"), "is not a student id"),
                   (user(sid="-x"), "is not a student id")):
    metadata(data)
    expect(said in refusal(gradescope.Refused, lambda: gradescope.student_of(layout, "sid", True)),
           f"metadata {data}: refused, saying {said!r}")
    expect(gradescope.student_of(layout, "sid", False) == {}, f"without variants {data} names "
                                                              f"no id and refuses nothing")
metadata(user(sid=12345))
expect(gradescope.student_of(layout, "sid", True) == {"12345": "Ada"}, "a numeric sid is an id")
metadata(user(sid="ada"))
expect(list(gradescope.student_of(layout, "email", True)) == ["ada@example.edu"],
       "the email field")
metadata({"users": [{"sid": "ada"}, {"sid": "bo"}]})
group = list(gradescope.student_of(layout, "sid", True))
expect(group == ["ada", "bo"], f"a group's ids: {group}")
stamp = {"workbook/VARIANT": variants.variant_file("bo", 5).encode()}
expect(gradescope.student_in_group(group, stamp) == "bo", "a group is graded on its VARIANT's")
expect("names none of them" in refusal(gradescope.Refused,
                                       lambda: gradescope.student_in_group(group, {})),
       "a group without a VARIANT file is refused")
expect(gradescope.student_in_group(["ada"], {}) == "ada", "one submitter is the student")
roster = gradescope.submitter_roster("ada", b"x" * 32, "Ada L.")
expect(roster.variant_of("ada") == variants.derive(b"x" * 32, "ada")
       and roster.entry_for("ada").name == "Ada L." and roster.entry_for("bo") is None,
       "the submitter's entry and variant")

# What a submission folder is graded as.
expect("is missing" in refusal(gradescope.NotGraded, lambda: gradescope.submission_path(layout)),
       "no submission folder: to retry")
os.makedirs(layout.submission)
with open(os.path.join(layout.submission, "workbook.tar.gz"), "wb") as f:
    f.write(b"")
expect(gradescope.submission_path(layout).endswith("workbook.tar.gz"), "one archive alone")
with open(os.path.join(layout.submission, "x_exercise.cu"), "wb") as f:
    f.write(b"")
expect(gradescope.submission_path(layout) == layout.submission, "files: the folder")

# A damaged package: run_autograder still writes a results.json, to be retried.
if os.geteuid() == 0:
    expect(gradescope.run(work) == 0, "run_autograder ends well with a damaged package")
    with open(layout.results_json) as f:
        data = json.load(f)
    expect(scoring.validate_gradescope(data) == [] and data["extra_data"]["retry"]
           and "autograder.json cannot be read" in data["output"],
           f"a damaged package is a result to retry: {data['output'][:200]}")
expect("under /tmp" in refusal(gradescope.NotGraded, lambda: gradescope.make_box(
    gradescope.Layout("/tmp/autograder"), {})), "a root under /tmp is refused")

# Which sandbox: the namespace one where it can be made, the fallback only where it cannot or
# where the package or $WORKBOOK_AUTOGRADER_SANDBOX asks for it.
asked = []


def namespace(why):
    def why_not():
        asked.append(why)
        return why
    return why_not


os.environ.pop(gradescope.SANDBOX_VARIABLE, None)
for config, why, variable, kind in (({"sandbox": "auto"}, None, None, "namespace"),
                                    ({"sandbox": "auto"}, "no unshare", None, "fallback"),
                                    ({"sandbox": "fallback"}, None, None, "fallback"),
                                    ({"sandbox": "auto"}, None, "fallback", "fallback"),
                                    ({"sandbox": "fallback"}, None, "namespace", "namespace"),
                                    ({}, None, None, "namespace")):
    if variable:
        os.environ[gradescope.SANDBOX_VARIABLE] = variable
    got = gradescope.sandbox_kind(config, namespace(why))
    os.environ.pop(gradescope.SANDBOX_VARIABLE, None)
    expect(got == kind, f"package {config}, namespace {why or 'possible'}, ${variable}: {got}")
asked.clear()
gradescope.sandbox_kind({"sandbox": "fallback"}, namespace(None))
expect(asked == [], "a forced fallback does not try the namespace sandbox")
os.environ[gradescope.SANDBOX_VARIABLE] = "namespace"
expect("cannot be made here: no unshare" in refusal(gradescope.NotGraded, lambda: gradescope.
                                                    sandbox_kind({}, namespace("no unshare"))),
       "namespace asked for and impossible: to retry")
os.environ[gradescope.SANDBOX_VARIABLE] = "weak"
expect("it may be namespace or fallback" in refusal(
    gradescope.NotGraded, lambda: gradescope.sandbox_kind({}, namespace(None))),
       "an unknown sandbox is refused")
os.environ.pop(gradescope.SANDBOX_VARIABLE, None)

shutil.rmtree(work, ignore_errors=True)
finish("gradescope: package contents, results not graded, metadata ids, submission folders, a "
       "damaged package, which sandbox: all as expected")
