#!/usr/bin/env python3
"""The grading tool's parts that need no build: the graders' records (cut short, forged), points,
scores, report.md, the Gradescope fields (their visibility), which files of a submission count
(one exercise file a chapter), whose fault a failed build is, and a subject's wrapper that
fails.

    test_grading.py SOURCE_ROOT
"""
import json
import os
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import build_errors, inspect_build, sandbox, scoring, submission, \
    variants  # noqa: E402
import manifest_views  # noqa: E402

record = scoring.record

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, failures as problems, finish  # noqa: E402
from hostile_class import refusal  # noqa: E402


def line(**fields):
    return (json.dumps(fields) + "\n").encode()


def check(name, outcome="passed", failures=0, headline="", parts=(), skip="", ended=False):
    return dict(check=name, outcome=outcome, skip_reason=skip, failures=failures,
                headline=headline, parts=list(parts), what_to_do="", ended_run=ended)


HEADER = line(record=1, chapter="ch99", mode="host", variant="variant 0 (self-study)",
              cases="", setting=[], details="", details_missing="")
RECORD = HEADER + line(setting="random inputs from seed 1") + line(**check("a & b: passes")) + \
    line(**check("fails", "failed", 3, "bank_of(0) returned -1",
                 [{"kind": "line", "text": "5 of 5"}, {"kind": "picture", "text": "w1 0\n"},
                  {"kind": "hint", "text": "bytes 0-3 are bank 0"}])) + \
    line(**check("skips", "skipped", skip="hardware counters not checked")) + \
    line(**check("cut short"))[:-1]
ran = record.parse(RECORD)
r = ran.results()
expect(r.get("a & b: passes") == ("passed", ""), f"a pass: {r.get('a & b: passes')}")
expect(r.get("fails") == ("failed", "bank_of(0) returned -1\n5 of 5\nHint: bytes 0-3 are bank 0\n"
                          "+ 2 more failed cases of this check."),
       f"a failure with its headline, lines, hint and count: {r.get('fails')}")
expect(r.get("skips") == ("skipped", "hardware counters not checked"), f"a skip: {r.get('skips')}")
expect("cut short" not in r and ran.end is None, "a line the run did not finish is not read")
expect(record.parse(b"").results() == {}, "an empty record reports nothing")
whole = RECORD[:RECORD.rfind(b"\n") + 1]
stopped = record.parse(whole + line(end="exit", stopped=check(
    "exits", "failed", 1, "Your code called exit()", ended=True)))
expect(stopped.end == "exit" and "exits" not in stopped.results() and
       stopped.outcomes().get("exits") == "failed",
       "the check exit() stopped in is told of, and did not report")
for bad, says in ((whole + line(**check("fails")), "two results"),
                  (HEADER + line(end="finished") + line(**check("forged")), "follows"),
                  (HEADER + b"<TestCase name=\"x\"/>\n", "not JSON"),
                  (line(**check("first")), "first line"),
                  (HEADER + line(**check("x", "won")), "never writes"),
                  (HEADER + line(**dict(check("x"), points=9)), "a check's line"),
                  (HEADER + line(end="finished", forged=True), "not one the grader writes"),
                  (HEADER + b" " * (record.RECORD_BYTES + 1), "larger")):
    said = refusal(record.RecordRefused, lambda: record.parse(bad))
    expect(says in said, f"a record that breaks a rule is refused, saying {says!r}: {said!r}")
# Every check of every chapter is read back by its name.
names = [c.name for chapter in scoring.manifest.chapters(root)
         for c in scoring.load_points(root, chapter)]
names.append('a "quoted" <b> & c \\ \u00e9')
r = record.parse(HEADER + b"".join(line(**check(n)) for n in names)).results()
expect(list(r) == names, f"checks not read back by name: {set(names) - set(r)}")

GRADER_INI = """# comment
[chapter]
min_compute_capability = 75

[threshold.bar]
at_least = 2.0
h200 = q
headroom = 1.2
why = because

[check.first]
name = ch99 first
mode = host
points = 2
kind = function
passes_when = p1

[check.second]
name = ch99 second
mode = gpu
points = 3
kind = speed
passes_when = at least {bar}
  times faster
thresholds = bar

[check.guard]
name = ch99 guard
mode = host
points = 0
kind = guard
passes_when = p3
"""
HIDDEN_INI = """[check.hidden_one]
name = ch99 hidden one
mode = host
points = 1
kind = function
passes_when = when
certifies = first

[wrong.slip]
why = a slip
replace = a\\nb
with = c
fails = first
passes = guard
expect = text

[lines.second]
on = reference
why = w
"""
with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "grader", "99_x"))
    os.makedirs(os.path.join(d, "solutions", "99_x"))
    path = os.path.join(d, "grader", "99_x", "chapter.ini")
    with open(path, "w") as f:
        f.write(GRADER_INI)
    points = scoring.load_points(d, "99_x")
    expect([(c.mode, c.points, c.name, c.hidden) for c in points] ==
           [("host", 2.0, "ch99 first", False), ("gpu", 3.0, "ch99 second", False),
            ("host", 0.0, "ch99 guard", False)], f"points read: {points}")
    chapter = scoring.manifest.load(d, "99_x")
    table = manifest_views.lesson_table(chapter)
    expect("| second | GPU | 3 | at least <!--fig:threshold.bar-->2.0 times faster |" in table,
           f"the lesson's table quotes the threshold behind its marker: {table}")
    expect('{"ch99 second", "[gpu]"}' in manifest_views.header(chapter),
           "the header registers each check with its name and tags")
    hidden_path = os.path.join(d, "solutions", "99_x", "chapter.ini")
    with open(hidden_path, "w") as f:
        f.write(HIDDEN_INI)
    with_hidden = scoring.load_points(d, "99_x")
    expect(len(with_hidden) == 4 and with_hidden[3].hidden and
           with_hidden[3].name == "ch99 hidden one", f"hidden points read: {with_hidden}")
    wrong = scoring.manifest.load(d, "99_x").wrong_answers
    expect(len(wrong) == 1 and wrong[0].edits == (("a\nb", "c"),) and wrong[0].mode == "host"
           and wrong[0].fails == ("first",), f"a wrong answer read: {wrong}")
    lines = scoring.manifest.load(d, "99_x").compared_lines
    expect(lines == [("second", "reference", "w")], f"a line-by-line comparison read: {lines}")
    hidden_only = scoring.manifest.hidden_part(HIDDEN_INI)
    expect("[check.hidden_one]" in hidden_only and "wrong" not in hidden_only,
           f"official grading's copy holds the hidden checks only: {hidden_only}")
    for bad, says in (
            (("points = 2", "points = two"), "is not a number"),
            (("mode = host", "mode = both"), "say host or gpu"),
            (("points = 2", "points = -1"), "must be a number >= 0"),
            (("kind = function", "kind = answer"), "say one of"),
            (("name = ch99 first", "name = first"), "must start with 'ch99 '"),
            (("name = ch99 guard", "name = ch99 first"), "two checks have the name"),
            (("passes_when = p1", "passes_when = p1\nwhatever = 1"), "unknown key 'whatever'"),
            (("passes_when = p1", "passes_when = p1\ncertifies = second"), "only a hidden check"),
            (("passes_when = p1\n", ""), "no 'passes_when'"),
            (("[check.first]", "[checks.first]"), "is no section"),
            (("thresholds = bar", "thresholds = foo"), "threshold 'foo'"),
            (("at_least = 2.0", "at_least = 2.0\nat_most = 3"), "one of them"),
            (("[chapter]", "[chapter]\n[chapter]"), "already exists")):
        with open(path, "w") as f:
            f.write(GRADER_INI.replace(*bad))
        said = refusal(scoring.PointsError, lambda: scoring.load_points(d, "99_x"))
        expect(path in said and says in said, f"a bad manifest {bad!r} is refused, naming the "
                                              f"file and the fault ({says!r}): {said!r}")
    with open(path, "w") as f:
        f.write(GRADER_INI)
    for bad, says in ((("fails = first", "fails = nothing"), "names check 'nothing'"),
                      (("fails = first", "fails = second"), "of one mode"),
                      (("[check.hidden_one]", "[check.one]"), "start with hidden_"),
                      (("[lines.second]", "[lines.first]"), "names no GPU check"),
                      (("on = reference", "on = slip"), "say reference or a GPU wrong answer"),
                      (("certifies = first", "certifies = hidden_one"), "no check of the")):
        with open(hidden_path, "w") as f:
            f.write(HIDDEN_INI.replace(*bad))
        said = refusal(scoring.PointsError, lambda: scoring.load_points(d, "99_x"))
        expect(says in said, f"a bad instructors' manifest {bad!r} is refused, saying {says!r}: "
                             f"{said!r}")

tests = scoring.score_chapter(
    "01_x", points, ["host"], {"host": {"ch99 first": ("passed", ""),
                                        "ch99 guard": ("failed", "no")}},
    {"host": "the grader exited (status 0) before this check reported"})
expect([t["score"] for t in tests] == [2.0, 0.0], f"host scores: {tests}")
expect(all(t["mode"] == "host" for t in tests), "gpu checks are not scored in host mode")
tests = scoring.score_chapter("01_x", points, ["host", "gpu"], {"host": {}, "gpu": None},
                              {"host": "exited", "gpu": "no usable GPU"})
expect([t["status"] for t in tests] == ["not reported"] * 3 and
       [t["output"] for t in tests] == ["exited", "no usable GPU", "not run: see 'ch99 first'"],
       f"a check that did not report scores zero with the reason, given once a mode (a compile "
       f"error is not repeated in every check): {tests}")

# A hidden check that certifies one of the hand-out's (the same item on fresh cases): that one's
# points only when the hidden one passes too.
for hidden_status, score in (("failed", 0.0), ("passed", 2.0)):
    certified = scoring.score_chapter("01_x", with_hidden, ["host"], {"host": {
        "ch99 first": ("passed", ""), "ch99 hidden one": (hidden_status, "")}}, {})[0]
    expect(certified["score"] == score and (score or "ch99 hidden one" in certified["output"]),
           f"a certified check, its hidden one {hidden_status}: {certified}")

# A hidden check (official grading's) is scored like any other, and marked in every output.
hidden_tests = scoring.score_chapter("01_x", with_hidden, ["host"],
                                     {"host": {"ch99 hidden one": ("failed", "a hidden case")}}, {})
expect([t["hidden"] for t in hidden_tests] == [False, False, True],
       f"the hidden check is marked: {hidden_tests}")
hidden_result = {"submission": "h", "mode": "host", "score": 0.0, "max_score": 3.0,
                 "seconds": 1.0, "notes": [], "ignored": [], "tests": hidden_tests}
expect("[hidden check" in scoring.report(hidden_result), "the report marks a hidden check")
expect("hidden" in scoring.gradescope(hidden_result)["tests"][2]["tags"],
       "results.json tags a hidden check")
expect(scoring.validate_gradescope(scoring.gradescope(hidden_result)) == [],
       "results.json with a hidden check is still Gradescope's")
expect([t["visibility"] for t in scoring.gradescope(hidden_result)["tests"]] ==
       ["visible", "visible", "after_due_date"] and [t["visibility"] for t in scoring.gradescope(
           dict(hidden_result, hidden_visibility="hidden"))["tests"]][2] == "hidden" == scoring.
       gradescope(hidden_result, "hidden")["tests"][2]["visibility"],
       "a hidden check: after the due date, or as --hidden-visibility says; never before the rest")
shown = scoring.gradescope(dict(hidden_result, tests=[dict(hidden_tests[0], output="a ```b```")]))
expect(shown["test_output_format"] == "md" and shown["tests"][0]["output"] ==
       "````text\nno result: a ```b```\n````" and not shown["output"].startswith("`"),
       f"results.json's check outputs are Markdown code blocks (the bank maps keep their columns): "
       f"{shown}")
expect(scoring.validate_gradescope(dict(shown, output_format="rich")) ==
       ["output_format must be one of ansi, html, md, simple_format, text"],
       "an output format Gradescope does not know is refused")
expect(".hidden" in scoring.junit(hidden_result), "the JUnit class names a hidden check")

result = {"submission": "s", "mode": "host", "score": 2.0, "max_score": 7.0, "seconds": 3.2,
          "notes": ["n"], "ignored": ["README.md"],
          "tests": [dict(t, score=t["max_score"] if i == 0 else 0.0, status="passed" if i == 0
                         else "failed") for i, t in enumerate(tests)]}
result["score"] = sum(t["score"] for t in result["tests"])
g = scoring.gradescope(result)
expect(scoring.validate_gradescope(g) == [], f"our results.json is Gradescope's: "
       f"{scoring.validate_gradescope(g)}")
with tempfile.TemporaryDirectory() as d:  # --visibility reaches results.json
    scoring.write_outputs(d, dict(result, visibility="after_due_date"), ["01_x"])
    with open(os.path.join(d, "results.json")) as f:
        written = json.load(f)
    expect(written["visibility"] == "after_due_date" and {t["visibility"] for t in
                                                          written["tests"]} == {"after_due_date"},
           f"results.json honours the result's visibility: {written['visibility']}")
expect(json.loads(json.dumps(g)) == g, "results.json is plain JSON")
bad = dict(g, max_score=3, tests=[dict(g["tests"][0], status="skipped", points=1)])
found = scoring.validate_gradescope(bad)
expect(any("max_score" in p for p in found) and any("points" in p for p in found)
       and any("status" in p for p in found), f"the validator finds unknown fields: {found}")
row = scoring.csv_row(result, ["01_x", "02_y"])
expect(row[:7] == ["s", "", "", "2", "7", "2", "0"], f"gradebook row: {row}")
row = scoring.csv_row(dict(result, student="alice", name="=cmd|' /C calc'!A0"), ["01_x", "02_y"])
expect(row[1] == "alice" and row[2] == "'=cmd|' /C calc'!A0",
       f"the row carries the student id, and a name that a spreadsheet would run is text: {row}")
expect(scoring.unreadable(dict(result, notes=["x", scoring.UNREADABLE + "a bad zip."])) ==
       "a bad zip" and scoring.unreadable(result) is None,
       "a submission that could not be read is told apart (the console, roster-check.csv)")
junit = scoring.junit(result)
expect(junit.count("<testcase") == 3 and junit.count("<failure") == 2, f"JUnit: {junit}")
# report.md: each grader's report as it printed it, whole, in a block no backtick in it ends.
screen = "ch99 host checks: 1 of 2 checks failed.\n\nFAILED x\n  ```not a fence```\n"
md = scoring.report(dict(result, screens=[{"chapter": "01_x", "mode": "host", "text": screen}],
                        tests=result["tests"][:2] + [dict(tests[2], status="not reported")]))
expect("\n````text\n" + screen + "````\n" in md and "    not run: see 'ch99 first'" in md,
       f"report.md holds the grader's report as printed, and why a check did not report: {md}")

files = {"workbook/chapters/01_x/x_exercise.cu": b"a", "x_exercise.cu": b"b",
         "workbook/README.md": b"r", "y_exercise.cu": b"c", "notes/z_exercise.cu": b"d"}
found, ignored = submission.exercise_files(files, ["01_x", "02_y"])
expect(found == {"01_x": ("workbook/chapters/01_x/x_exercise.cu", b"a"),
                 "02_y": ("y_exercise.cu", b"c")},
       f"the canonical path wins, a bare file counts: {found}")
expect(sorted(ignored) == ["notes/z_exercise.cu", "workbook/README.md", "x_exercise.cu"],
       f"everything else is ignored and listed: {ignored}")
# Two hand-out trees at two depths (or two copies outside any): nothing says which is meant, so
# the chapter has none, and both are named; a copy outside chapters/ still loses to one inside.
files = {"workbook/chapters/01_x/x_exercise.cu": b"a", "chapters/01_x/x_exercise.cu": b"b",
         "old/x_exercise.cu": b"c", "a/y_exercise.cu": b"d", "b/y_exercise.cu": b"e"}
found, ignored = submission.exercise_files(files, ["01_x", "02_y"])
expect(found == {} and found.conflicts == {
    "01_x": ["chapters/01_x/x_exercise.cu", "workbook/chapters/01_x/x_exercise.cu"],
    "02_y": ["a/y_exercise.cu", "b/y_exercise.cu"]} and "old/x_exercise.cu" in ignored
       and any(i.startswith("workbook/chapters/01_x/x_exercise.cu (one of 2") for i in ignored),
       f"two exercise files of one chapter at one rank: a conflict, both named: {found} "
       f"{getattr(found, 'conflicts', None)} {ignored}")

# A roster keys the gradebook by student id: with a header its columns are found by name (the
# submission's name may differ from the id, as a course platform's download names files), without
# one its first column is the id; bad rosters are refused naming the row.
def roster_of(text):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(text)
    try:
        return variants.Roster.read(f.name)
    finally:
        os.remove(f.name)


roster = roster_of("Name,SIS User ID,Submission\nAlice Liddell,alice,smith_123_alice.zip\n"
                   "Bob,bob,\nCarol,carol,carol-final\n")
expect([e.student for e in roster.entries] == ["alice", "bob", "carol"]
       and roster.entries[0].name == "Alice Liddell", "a roster's columns found by name")
expect(roster.entry_for(submission.submission_id("smith_123_alice.zip")).student == "alice"
       and roster.entry_for("smith_123_alice").student == "alice"
       and roster.entry_for("bob").student == "bob"
       and roster.entry_for("carol-final").student == "carol"
       and roster.entry_for("carol") is None and roster.entry_for("alice") is None,
       "a submission maps to its roster row by the submission column, else by the id")
expect(roster.secret is None and set(roster.variants.values()) == {0},
       "without the course secret every student is on variant 0")
semicolons = roster_of("Name;SIS User ID\nAlice Liddell;alice\nBob;bob\n")
expect([(e.student, e.name) for e in semicolons.entries] == [("alice", "Alice Liddell"),
                                                             ("bob", "Bob")],
       "a roster separated by semicolons (a spreadsheet's export) is read by its columns")
plain = roster_of("alice,Alice,ignored\nbob\n")
expect([(e.student, e.name, e.submission) for e in plain.entries]
       == [("alice", "", None), ("bob", "", None)],
       "without a header only the first column is read (the id)")
for text, says in (("student,name\nalice,A\nalice,B\n", "listed twice"),
                   ("name,submission\nA,a.zip\n", "names no column of student ids"),
                   ("student,submission\nalice,x.zip\nbob,x.zip\n", "listed twice"),
                   ("student\n\n", "no student"), ("student\nal ice\n", "not a student id")):
    said = refusal(variants.VariantError, lambda: roster_of(text))
    expect(says in said and ("row" in said or "no student" in said or "header" in said),
           f"a bad roster {text!r} is refused saying {says!r}: {said!r}")
lms = scoring.lms_rows(roster, {"alice": dict(result, score=5.0), "carol": dict(result)},
                       "Workbook")
expect(lms[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Workbook"]
       and lms[1] == ["Alice Liddell", "", "alice", "", "", "5"]
       and lms[2] == ["Bob", "", "bob", "", "", ""] and lms[3][2:] == ["carol", "", "", "2"],
       f"the gradebook import: every student of the roster, an empty grade without a result: "
       f"{lms}")

with tempfile.TemporaryDirectory() as d:
    for name in ("b.tar.gz", "a", ".hidden", "c.zip", "notes.txt"):
        p = os.path.join(d, name)
        os.makedirs(p) if name in ("a", ".hidden") else open(p, "w").close()
    expect([submission.submission_id(p) for p in sorted(os.listdir(d))
            if submission.is_submission(os.path.join(d, p))] == ["a", "b", "c"],
           "a class folder's submissions: folders and archives")

# A submission is hostile input: every archive below once crashed the whole class, or read
# without bound, or dropped something silently. read_files must answer each with a
# SubmissionError (one printable line) or a note, and raise nothing else.
import csv  # noqa: E402
import io  # noqa: E402
import random  # noqa: E402
import stat  # noqa: E402
import struct  # noqa: E402
import tarfile  # noqa: E402
import time  # noqa: E402
import zipfile  # noqa: E402

from hostile_class import patch_zip, tar_bytes, tar_info, zip_bytes, zip_headers  # noqa: E402


def outcome(path, what):
    """("error", reason) or ("read", SubmissionFiles); anything else raised is a problem."""
    try:
        found = submission.read_files(path)
    except submission.SubmissionError as e:
        text = str(e)
        expect("\n" not in text and text.isprintable(), f"{what}: the error is not one printable "
                                                        f"line: {text!r}")
        expect(text == f"{e.name} could not be read: {e.reason}", f"{what}: str(e) is {text!r}")
        return "error", e.reason
    except Exception as e:  # noqa: B902 - the point of the test
        problems.append(f"{what}: read_files raised {type(e).__name__}: {e}")
        return "crash", str(e)
    if not hasattr(found, "ignored"):
        problems.append(f"{what}: read_files gave no .ignored and .notes")
        return "old", found
    names = list(found) + list(found.ignored) + found.notes + list(found.ignored.values())
    expect(all(n.isprintable() for n in names), f"{what}: an unprintable name: {names}")
    try:
        json.dumps(names, ensure_ascii=False).encode("utf-8")
        csv.writer(io.StringIO()).writerow(names)
    except Exception as e:  # noqa: B902
        problems.append(f"{what}: a name does not go to JSON or CSV: {e}")
    return "read", found


def refused(path, what, words):
    kind, found = outcome(path, what)
    expect(kind == "error" and words in found, f"{what}: expected a SubmissionError saying "
                                               f"{words!r}, got {kind}: {found}")


EXERCISE = b"__global__ void k() {}\n"
with tempfile.TemporaryDirectory() as d:
    def put(name, data):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    plain = zip_bytes([("chapters/01_x/x_exercise.cu", EXERCISE), ("README.md", b"r")])
    kind, found = outcome(put("plain.zip", plain), "a plain zip")
    expect(kind == "read" and found == {"chapters/01_x/x_exercise.cu": EXERCISE,
                                        "README.md": b"r"} and not found.ignored
           and not found.notes, f"a plain zip is read: {found}")

    # Encrypted: the flag bit in both headers. Every file encrypted: the submission is refused;
    # one among others: it is listed, the rest is read.
    refused(put("enc.zip", patch_zip(zip_bytes([("x_exercise.cu", EXERCISE)]), flags=1)),
            "an encrypted zip", "the zip archive is encrypted")
    kind, found = outcome(put("enc1.zip", patch_zip(plain, flags=1, member=1)),
                          "a zip with one encrypted member")
    expect(kind == "read" and list(found) == ["chapters/01_x/x_exercise.cu"]
           and "encrypted" in found.ignored.get("README.md", ""),
           f"an encrypted member is listed, the rest read: {found} {getattr(found, 'ignored', '')}")
    # Deflate64 (method 9): zipfile raises NotImplementedError when it is opened.
    refused(put("d64.zip", patch_zip(zip_bytes([("x_exercise.cu", EXERCISE)]), method=9)),
            "a Deflate64 zip", "compression method that cannot be read (deflate64)")
    kind, found = outcome(put("d64b.zip", patch_zip(plain, method=9, member=1)),
                          "a zip with one Deflate64 member")
    expect(kind == "read" and "deflate64" in found.ignored.get("README.md", ""),
           f"a Deflate64 member is listed: {getattr(found, 'ignored', found)}")
    # Corrupt and truncated.
    refused(put("junk.zip", b"PK\x03\x04" + bytes(range(256)) * 4), "a zip of junk",
            "the zip archive is damaged or truncated")
    refused(put("half.zip", plain[: len(plain) // 2]), "a truncated zip", "damaged or truncated")
    refused(put("empty.zip", b""), "an empty .zip file", "damaged or truncated")
    damaged = zip_bytes([("x_exercise.cu", random.Random(1).randbytes(20000))])
    for i in range(200, 400):
        damaged[i] ^= 0x55
    refused(put("crc.zip", damaged), "a zip whose data is damaged", "damaged")  # CRC or zlib
    # A name that is not UTF-8 although the UTF-8 flag (0x800) says it is: refused with the name
    # escaped. Without the flag the name is cp437, and read.
    bad_name = zip_bytes([("Q_exercise.cu", EXERCISE)], zipfile.ZIP_STORED)
    bad_name = bytearray(bytes(bad_name).replace(b"Q_exercise", b"\xff_exercise"))
    refused(put("utf8flag.zip", patch_zip(bytearray(bad_name), flags=0x800)),
            "a zip naming a member in bytes that are not UTF-8", "'\\xff_exercise.cu'")
    kind, found = outcome(put("cp437.zip", bad_name), "a zip name in cp437")
    expect(kind == "read" and list(found) == ["\\xa0_exercise.cu"],  # 0xff: a no-break space
           f"cp437 name: {found}")

    # Zip bombs. 200 MB of zeros deflate to about 200 KB: refused from the headers, before a
    # byte is inflated (it would take seconds and 200 MB).
    bomb_path = os.path.join(d, "bomb.zip")
    with zipfile.ZipFile(bomb_path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("x_exercise.cu", "w", force_zip64=True) as f:
            zeros = bytes(1 << 20)
            for _ in range(200):
                f.write(zeros)
    start = time.monotonic()
    refused(bomb_path, "a zip bomb", "(a zip bomb)")
    expect(os.path.getsize(bomb_path) < 1 << 20 and time.monotonic() - start < 1,
           "the zip bomb is refused from its headers")
    # Headers forged: a 3 GiB member declared in a small zip.
    forged = zip_bytes([("x_exercise.cu", bytes(1 << 20))])
    refused(put("forged.zip", patch_zip(forged, sizes=(len(forged) // 2, 3 << 30))),
            "a zip declaring 3 GiB", "(a zip bomb)")
    # Headers that lie the other way: 1 MiB of zeros declared as 1000 bytes is read only up to
    # its declared size, and then found damaged.
    liar = zip_bytes([("x_exercise.cu", bytes(1 << 20))])
    local, _ = zip_headers(liar)
    compressed = struct.unpack_from("<I", liar, local[0] + 18)[0]
    refused(put("liar.zip", patch_zip(liar, sizes=(compressed, 1000))),
            "a zip declaring less than it holds", "damaged or truncated")
    # Many members, each small enough: the total bound refuses them from the headers.
    many = zip_bytes([(f"f{i}.bin", bytes(1 << 20)) for i in range(70)])
    refused(put("many.zip", many), "a zip of 70 MiB of members", "more than 64 MiB of files")
    refused(put("entries.zip", zip_bytes([(f"f{i}", b"") for i in range(10001)],
                                         zipfile.ZIP_STORED)),
            "a zip of 10001 entries", "more than 10000 entries")
    # One member too large to read: listed, the rest read.
    kind, found = outcome(put("large.zip", zip_bytes(
        [("x_exercise.cu", EXERCISE), ("video.bin", random.Random(2).randbytes(5 << 20))],
        zipfile.ZIP_STORED)), "a zip with a 5 MiB member")
    expect(kind == "read" and list(found) == ["x_exercise.cu"]
           and found.ignored.get("video.bin", "").startswith("too large"),
           f"a 5 MiB member is ignored as too large: {getattr(found, 'ignored', found)}")
    # A symlink in a zip (Unix mode in the external attributes), a path out of the tree and a
    # name twice (zipfile keeps both entries).
    link = zipfile.ZipInfo("chapters/01_x/x_exercise.cu")
    link.create_system, link.external_attr = 3, (stat.S_IFLNK | 0o777) << 16
    kind, found = outcome(put("link.zip", zip_bytes([(link, "/etc/passwd"),
                                                     ("../../evil_exercise.cu", EXERCISE)])),
                          "a zip with a symlink and a path out of the tree")
    expect(kind == "read" and not found and found.ignored == {
        "chapters/01_x/x_exercise.cu": "a symlink, not read",
        "../../evil_exercise.cu": "an unsafe path (outside the submission), not read"},
        f"a symlink and an unsafe path are listed: {getattr(found, 'ignored', found)}")
    kind, found = outcome(put("twice.zip", zip_bytes([("a/x_exercise.cu", b"first"),
                                                      ("./a//x_exercise.cu", b"last")])),
                          "a zip with a name twice")
    expect(kind == "read" and found == {"a/x_exercise.cu": b"last"} and found.notes ==
           ["a/x_exercise.cu appears twice in the submission; the last copy is graded"],
           f"a name twice: the last copy, and a note: {found} {getattr(found, 'notes', '')}")
    exercises, ignored = submission.exercise_files(found, ["01_x"])
    expect(exercises == {"01_x": ("a/x_exercise.cu", b"last")}, "exercise_files takes the answer")
    kind, found = outcome(put("class.csv.zip", plain), "a submission named class.csv.zip")
    expect(kind == "read" and submission.submission_id(os.path.join(d, "class.csv.zip"))
           == "class.csv", "class.csv.zip is read, its id is class.csv")

    # Tars: links, devices and fifos listed by kind; a name not UTF-8 escaped.
    kinds = [(tar_info("s_exercise.cu", tarfile.SYMTYPE, "/etc/passwd"), None),
             (tar_info("h_exercise.cu", tarfile.LNKTYPE, "/etc/shadow"), None),
             (tar_info("dev/c", tarfile.CHRTYPE), None), (tar_info("dev/b", tarfile.BLKTYPE), None),
             (tar_info("dev/p", tarfile.FIFOTYPE), None), (tar_info("dir", tarfile.DIRTYPE), None),
             (tar_info("\udcff\udcfe_exercise.cu"), EXERCISE), (tar_info("a\nb"), b"n")]
    for compression in ("", "gz"):
        kind, found = outcome(put("kinds.tar" + (".gz" if compression else ""),
                                  tar_bytes(kinds, compression)), "a tar of every kind")
        expect(kind == "read" and found == {"\\xff\\xfe_exercise.cu": EXERCISE, "a\\x0ab": b"n"}
               and found.ignored == {"s_exercise.cu": "a symlink, not read",
                                     "h_exercise.cu": "a hard link, not read",
                                     "dev/c": "a character device, not read",
                                     "dev/b": "a block device, not read",
                                     "dev/p": "a fifo, not read"},
               f"a tar's kinds: {found} {getattr(found, 'ignored', '')}")
    kind, found = outcome(put("twice.tar", tar_bytes([(tar_info("a/x_exercise.cu"), b"1"),
                                                      (tar_info("a/x_exercise.cu",
                                                                tarfile.SYMTYPE, "/x"), None),
                                                      (tar_info("./a/x_exercise.cu"), b"3")])),
                          "a tar with a name three times")
    expect(kind == "read" and found == {"a/x_exercise.cu": b"3"} and not found.ignored
           and found.notes == ["a/x_exercise.cu appears 3 times in the submission; the last "
                               "copy is graded"], f"a tar name three times: {found}")
    # A 1.5 KB sparse tar (GNU 'S') that claims a 100 GiB member: listed as too large, not read.
    header = bytearray(tar_info("x_exercise.cu").tobuf(tarfile.GNU_FORMAT))
    header[156:157] = tarfile.GNUTYPE_SPARSE
    huge = b"\x80" + (100 << 30).to_bytes(11, "big")  # base-256: too big for 11 octal digits
    header[483:495] = huge                          # the real size
    header[386:398] = huge                          # one empty region at its end
    header[398:410] = b"%011o\0" % 0
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    sparse = bytes(header) + bytes(1024)
    expect(len(sparse) == 1536, "the sparse tar is 1.5 KB")
    start = time.monotonic()
    kind, found = outcome(put("sparse.tar", sparse), "a sparse tar claiming 100 GiB")
    expect(kind == "read" and not found and found.ignored.get("x_exercise.cu", "").startswith(
        f"too large ({100 << 30} bytes") and time.monotonic() - start < 1,
        f"a sparse 100 GiB member is listed as too large: {getattr(found, 'ignored', found)}")
    # Truncated and damaged tars, plain and compressed.
    good = tar_bytes([(tar_info("x_exercise.cu"), bytes(5000)), (tar_info("y"), b"y")])
    refused(put("cut.tar", good[:1024]), "a tar cut in a member's data", "damaged or truncated")
    refused(put("noend.tar", good[:512 * 13]), "a tar cut at a header", "truncated")
    bad_header = bytearray(good)
    bad_header[512 * 11 + 100] ^= 0xFF  # the second header's mode: its checksum no longer holds
    refused(put("badsum.tar", bad_header), "a tar with a damaged second header", "damaged")
    gz = tar_bytes([(tar_info("x_exercise.cu"), random.Random(3).randbytes(50000))], "gz")
    refused(put("cut.tar.gz", gz[: len(gz) // 2]), "a truncated tar.gz (EOFError)",
            "truncated or damaged")
    flipped = bytearray(gz)
    for i in range(100, 140):
        flipped[i] ^= 0xA5
    refused(put("zlib.tgz", flipped), "a tar.gz with damaged deflate data (zlib.error)",
            "damaged or truncated")
    refused(put("junk.tar.gz", b"\x1f\x8b" + bytes(100)), "a gzip header and junk",
            "the gzip data is damaged")
    refused(put("junk.tar", b"not a tar at all" * 100), "a .tar of junk", "tar archive")
    refused(os.path.join(d, "missing.zip"), "a missing archive", "No such file or directory")
    # A compressed tar that expands without bound is stopped at the stream bound (made small
    # here: the real one is 1 GiB).
    saved = submission.MAX_STREAM_BYTES
    submission.MAX_STREAM_BYTES = 4 << 20
    try:
        refused(put("gzbomb.tar.gz", tar_bytes([(tar_info("big"), bytes(8 << 20)),
                                                (tar_info("x_exercise.cu"), EXERCISE)], "gz")),
                "a tar.gz expanding beyond the stream bound", "expands to more than 4 MiB")
    finally:
        submission.MAX_STREAM_BYTES = saved
    refused(put("entries.tar", tar_bytes([(tar_info(f"f{i}"), b"") for i in range(10001)])),
            "a tar of 10001 entries", "more than 10000 entries")

    # Random damage: whatever the bytes, a SubmissionError or an answer, never anything else.
    rng = random.Random(4)
    for label, data in (("zip", plain), ("tar.gz", gz), ("tar", good)):
        for n in range(150):
            copy = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                copy[rng.randrange(len(copy))] = rng.randrange(256)
            outcome(put("fuzz." + label, copy[: rng.randint(len(copy) // 2, len(copy))]
                        if n % 3 == 0 else copy), f"a damaged {label} (case {n})")

    # A folder: a name not UTF-8, a symlink, a fifo, a file too large, an unreadable file.
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "chapters", "01_x"))
    put("tree/chapters/01_x/x_exercise.cu", EXERCISE)
    with open(os.fsencode(tree) + b"/notes-\xff.txt", "wb") as f:
        f.write(b"latin-1")
    os.symlink("/etc/passwd", os.path.join(tree, "y_exercise.cu"))
    os.symlink("/etc", os.path.join(tree, "etc"))
    os.mkfifo(os.path.join(tree, "pipe"))
    put("tree/big.bin", bytes(5 << 20))
    start = time.monotonic()
    kind, found = outcome(tree, "a folder with odd entries")
    expect(kind == "read" and found == {"chapters/01_x/x_exercise.cu": EXERCISE,
                                        "notes-\\xff.txt": b"latin-1"}
           and found.ignored.get("y_exercise.cu") == "a symlink, not read"
           and found.ignored.get("etc") == "a symlink, not read"
           and found.ignored.get("pipe") == "a fifo, not read"
           and found.ignored.get("big.bin", "").startswith("too large")
           and time.monotonic() - start < 5,
           f"a folder's odd entries: {found} {getattr(found, 'ignored', '')}")
    exercises, ignored = submission.exercise_files(found, ["01_x"])
    expect("pipe (a fifo, not read)" in ignored and "notes-\\xff.txt" in ignored,
           f"exercise_files lists what read_files did not read, with the reason: {ignored}")

# Submission ids: safe folder names and CSV cells, different names stay different.
ids = {}
for name in ("", ".", "..", "a/b", "a\0b", "a\nb", "=SUM(A1)", "-rf", ".hidden", "Jos\u00e9",
             "\udcff", "a b", "a_b", "a%20b", "x" * 300, "x" * 299 + "y", "class.csv", "50%"):
    ident = submission.safe_name(name)
    expect(ident not in ("", ".", "..") and len(ident) <= 80 and ident.isascii()
           and ident.isprintable() and "/" not in ident and ident[0] not in ".-=+@",
           f"safe_name({name!r}) = {ident!r}")
    expect(ident not in ids, f"safe_name({name!r}) = safe_name({ids.get(ident)!r}) = {ident!r}")
    ids[ident] = name
expect(submission.safe_name("Jos\u00e9") == "Jos%c3%a9" and submission.safe_name("class.csv")
       == "class.csv" and submission.safe_name(b"\xff") == "%ff", "safe_name's escapes")
expect([submission.submission_id(p) for p in ("/c/Ann.zip", "/c/Ann.tar.gz", "/c/Ann/", ".zip",
                                              "/c/\udcff.tgz", "/", "/c/..")]
       == ["Ann", "Ann", "Ann", "%2ezip", "%ff", "_", "_"],
       "submission ids: archive suffixes dropped (so a.zip and a.tar.gz collide, which the class "
       "refuses), never empty")

# Whose fault a failed build is (build_errors.judge): the compiler's lines about the student's
# code are the student's, whatever they say; the rest is the machine's, to retry.
EX = "../src/chapters/01_x/x_exercise.cu"
PRISTINE = {"/g/build/u.cu", "/usr/include/c++/12/bits/stl_algo.h", "/g/src/chapters/01_x/x.cuh"}


def whose(text):
    return build_errors.judge(text, "01_x", PRISTINE, "/g/build", ["/g/src", "../src"])


for text, student, says in (
        (f"{EX}:5:2: error: #error No space left on device\n    5 | #error No space left on "
         f"device\n      |  ^~~~~\nninja: build stopped: subcommands failed.\n", True,
         "chapters/01_x/x_exercise.cu:5:2: error: #error No space left on device"),
        (f'{EX}(2): remark #20200-D: #pragma message: "out of memory"\n  #pragma message("out '
         f'of memory")\n{EX}(9): error: identifier "y" is undefined\n', True,
         'chapters/01_x/x_exercise.cu(9): error: identifier "y" is undefined'),
        (f"In file included from /usr/include/c++/12/algorithm:61,\n                 from {EX}:3:"
         f"\n/usr/include/c++/12/bits/stl_algo.h:40:3: error: macro \"max\" passed 2 arguments"
         f"\n", True, "stl_algo.h:40:3: error"),
        ("/g/src/chapters/01_x/other.cuh(3): error: identifier \"x\" is undefined\n", True,
         "other.cuh(3): error"),  # a header only the submission reads
        ("ptxas error   : Entry function '_Z1kPf' uses too much shared data\n", True,
         "too much shared data"),
        ("/tmp/cc1.s: Assembler messages:\n/tmp/cc1.s:5: Error: file not found: /x\n", True,
         "Error: file not found"),
        ("/usr/bin/ld: u.o: in function `f()':\nu.cu:(.text+0x5): undefined reference to "
         "`g()'\ncollect2: error: ld returned 1 exit status\n", True, "g() is used but never"),
        ("/usr/bin/ld: /usr/local/cuda/lib64/libcudart_static.a(cudart_static.o): in function "
         "`cudaEventElapsedTime':\n(.text+0x40): multiple definition of `cudaEventElapsedTime'; "
         "u.o:u.cu:(.text+0x1d0): first defined here\n", True, "which the CUDA runtime defines"),
        ("ninja: error: opening build log: Permission denied\n", False,
         "without an error that names the exercise file"),
        ("Traceback (most recent call last):\n  File \"make_grader_unit.py\", line 51, in main\n"
         "PermissionError: [Errno 13] Permission denied: 'u.cu'\n", False, "without an error"),
        ("/g/src/chapters/01_x/x.cuh(3): error: identifier \"x\" is undefined\n", False,
         "without an error"),  # a header the pristine unit reads, reached from nowhere shown
        (f"{EX}:9:1: error: 'y' was not declared\ncc1plus: out of memory allocating 65536 bytes"
         f"\n", False, "a resource while building (cc1plus: out of memory"),
        ("ptxas fatal   : Memory allocation failure\n", False, "ran out of a resource")):
    shown, machine = whose(text)
    expect((shown is not None) == student and (machine is None) == student
           and says in ("\n".join(shown) if student else machine),
           f"whose failure: {text[:80]!r} is the {'student' if student else 'machine'}'s, "
           f"saying {says!r}: {shown} {machine}")

# ninja's output, split by the target it is about (inspect_build.about).
said = inspect_build.about(
    "[1/3] Compiling Cuda object ch02_y_grader.p/u.cu.o\nFAILED: ch01_x_grader.p/u.cu.o\n"
    "nvcc -c ch01_grader_unit.cu\nerror one\n[2/3] Linking target ch02_y_grader\n"
    "ninja: build stopped: subcommands failed.\n", ["ch01_x_grader", "ch02_y_grader"])
expect("error one" in said["ch01_x_grader"] and "error one" not in said["ch02_y_grader"]
       and all("ninja: build stopped" in t for t in said.values()),
       f"ninja's output split by the chapter it is about, its own lines to each: {said}")

# A subject's wrapper that fails (here: no spec to read) is the machine's fault: it notes so for
# the tool and ends with 125, never as the student's code would (run as the judge runs it).
with tempfile.TemporaryDirectory() as d:
    import subprocess  # noqa: E402
    done = subprocess.run([sys.executable, "-I", sandbox.__file__, os.path.join(d, "wrapper.json"),
                           "/subject"], capture_output=True, text=True)
    noted = os.path.join(d, sandbox.WRAPPER_FAULT)
    expect(done.returncode == 125 and os.path.isfile(noted),
           f"a failed wrapper notes its fault and ends with 125: {done.returncode} {done.stderr}")
    # The fallback's wrapper: a subject's copy it cannot run (an exec's 126 or 127 otherwise).
    from grading import fallback_sandbox  # noqa: E402
    box = object.__new__(fallback_sandbox.FallbackSandbox)
    box.temporary, box.path, box.uid, box.subject_place = d, "/usr/bin:/bin", os.getuid(), d
    box._lay, box._fresh_temporary = (lambda *_: None), (lambda: None)
    os.remove(noted)
    done = subprocess.run([box.subject_wrapper(os.path.join(d, "subject"), 10, None, 1 << 20),
                           "/no/such/subject"], capture_output=True, text=True)
    expect(done.returncode == 125 and os.path.isfile(noted),
           f"the fallback's wrapper notes a subject it cannot run: {done.returncode} {done.stderr}")

# A subject's view holds every file its exercise and headers include, whichever chapters the
# submission edited: chapter 12's interface includes chapter 11's, which it may leave untouched.
import re  # noqa: E402
from grading import prepare  # noqa: E402
view = set(prepare.subject_sources(root))


def follow_includes(source, seen):
    with open(os.path.join(root, source), encoding="utf-8") as f:
        for name in re.findall(r'#include "((?:chapters|common|grader)/[^"]+)"', f.read()):
            expect(name in view, f"{source} includes {name}, which a subject's view lacks")
            if name in view and name not in seen:
                seen.add(name)
                follow_includes(name, seen)


for c in manifest_views.chapters(root):
    for folder in ("chapters", "solutions"):
        follow_includes(f"{folder}/{c}/{c[3:]}_exercise.cu", set())

finish("grading: records (cut short, forged), points, scores, report.md, Gradescope fields, "
       "submission files, hostile archives and folders, submission ids, whose build "
       "failure, a subject's failing wrapper, a subject's view: all as expected")
