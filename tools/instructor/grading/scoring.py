"""Points, scores and the files a course platform takes: Gradescope's results.json, a gradebook
CSV row, JUnit XML, and a report for the student."""
import csv
import fcntl
import io
import json
import os
import re
import sys
import time
from xml.sax.saxutils import escape, quoteattr

# Gradescope's documented fields (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
# the tool writes no other, and its tests hold it to these.
GRADESCOPE_TOP = {"score", "execution_time", "output", "output_format", "test_output_format",
                  "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
                  "leaderboard"}
GRADESCOPE_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output",
                   "output_format", "tags", "visibility", "extra_data"}
# Gradescope's visibilities, the least shown first.
GRADESCOPE_VISIBILITY = ("hidden", "after_published", "after_due_date", "visible")
GRADESCOPE_STATUS = {"passed", "failed"}
GRADESCOPE_FORMATS = {"text", "html", "simple_format", "md", "ansi"}


# The chapters' manifests and the graders' records are the grader's (grader/tools/manifest.py,
# record.py): one reader of each.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), "grader", "tools"))
import manifest  # noqa: E402
import record  # noqa: E402,F401

PointsError = manifest.ManifestError
number = manifest.number


def load_points(root, chapter):
    """The checks of chapter `chapter` of the workbook at `root`, with their points: its
    manifest's, and the hidden checks' where the tree has them (grader/tools/manifest.py)."""
    return manifest.load(root, chapter).checks


def score_chapter(chapter, points, modes, reported, reasons):
    """The tests of one chapter. `reported[mode]` is {check: (status, message)} from the
    grader's record, or None when that mode did not run at all; `reasons[mode]` says why a check
    that did not report is missing (the run's end: exit status, timeout, build failure)."""
    tests, told, scored = [], {}, {}  # told: the check whose output first gave a mode's reason
    for check in points:
        mode, value, name = check.mode, check.points, check.name
        if mode not in modes:
            continue
        results = reported.get(mode)
        if results is not None and name in results:
            status, message = results[name]
        elif reasons.get(mode) and mode in told:  # a compile error once, not in every check
            status, message = "not reported", f"not run: see '{told[mode]}'"
        else:
            status, message = "not reported", reasons.get(mode) or "the check did not report"
            told[mode] = name
        tests.append({"chapter": chapter, "mode": mode, "name": name, "max_score": value,
                      "score": value if status == "passed" else 0.0, "status": status,
                      "output": message, "hidden": check.hidden})
        scored[check.id] = (check, tests[-1])
    # A hidden check certifies checks of the hand-out (the same item on cases of its own): their
    # points only when it passes, so that values a local run shows or a digest gives are no grade.
    for check, test in scored.values():
        for certified in check.certifies:
            if certified in scored and test["status"] != "passed" and scored[certified][1]["score"]:
                scored[certified][1].update(score=0.0, status="failed", output=(
                    f"passed, but scored 0: official grading also tries it on cases of its own "
                    f"('{check.name}'), which " + ("it failed" if test["status"] == "failed"
                                                   else "did not report")))
    return tests


def fenced(text):
    """`text` as a Markdown code block that no run of backticks in it ends."""
    fence = "`" * max([3] + [len(r) + 1 for r in re.findall("`+", text)])
    return f"{fence}text\n{text.rstrip(chr(10))}\n{fence}"


def gradescope(result, visibility="visible"):
    """Gradescope's results.json: each check's output a Markdown code block (the bank maps keep
    their columns); hidden checks as hidden_visibility says (after_due_date), never sooner."""
    tests, later = [], min(GRADESCOPE_VISIBILITY.index(visibility), GRADESCOPE_VISIBILITY.index(
        result.get("hidden_visibility", "after_due_date")))
    for number, t in enumerate(result["tests"], 1):
        output = t["output"]
        if t["status"] == "skipped":
            output = "not run: " + output
        elif t["status"] == "not reported":
            output = "no result: " + output
        tests.append({"name": t["name"], "number": str(number), "score": t["score"],
                      "max_score": t["max_score"],
                      "status": "passed" if t["status"] == "passed" else "failed",
                      "output": fenced(output), "visibility": GRADESCOPE_VISIBILITY[later]
                      if t.get("hidden") else visibility,
                      "tags": [t["chapter"], t["mode"]] + (["hidden"] if t.get("hidden") else [])})
    return {"score": result["score"], "execution_time": round(result["seconds"]),
            "output": summary_text(result), "test_output_format": "md",
            "visibility": visibility, "stdout_visibility": "hidden",
            "tests": tests}


def validate_gradescope(data):
    """Problems with `data` as a Gradescope results.json: unknown fields, wrong types."""
    problems = []
    for key in data:
        if key not in GRADESCOPE_TOP:
            problems.append(f"unknown top-level field {key}")
    if not isinstance(data.get("score"), (int, float)):
        problems.append("score must be a number")
    if data.get("visibility", "visible") not in GRADESCOPE_VISIBILITY:
        problems.append("visibility must be one of " + ", ".join(sorted(GRADESCOPE_VISIBILITY)))
    for key in ("output_format", "test_output_format"):
        if data.get(key, "md") not in GRADESCOPE_FORMATS:
            problems.append(f"{key} must be one of " + ", ".join(sorted(GRADESCOPE_FORMATS)))
    for t in data.get("tests", []):
        for key in t:
            if key not in GRADESCOPE_TEST:
                problems.append(f"unknown test field {key}")
        for key in ("score", "max_score"):
            if not isinstance(t.get(key), (int, float)):
                problems.append(f"test {t.get('name')}: {key} must be a number")
        if t.get("status") not in GRADESCOPE_STATUS:
            problems.append(f"test {t.get('name')}: status must be passed or failed")
        if t.get("visibility", "visible") not in GRADESCOPE_VISIBILITY:
            problems.append(f"test {t.get('name')}: bad visibility")
        if not isinstance(t.get("name"), str) or not isinstance(t.get("output", ""), str):
            problems.append("test name and output must be strings")
    total = sum(t.get("score", 0) for t in data.get("tests", []))
    if abs(total - data.get("score", 0)) > 1e-9:
        problems.append("score is not the sum of the tests' scores")
    return problems


def csv_header(chapters):
    return ["submission", "student", "name", "score", "max_score"] + \
        [f"ch{c[:2]}" for c in chapters] + ["variant", "notes"]


def csv_row(result, chapters):
    """A submission's row of class.csv: `student` is the student id the roster gives (or the
    submission's VARIANT file names), so that a gradebook can be joined on it."""
    scores = {c: sum(t["score"] for t in result["tests"] if t["chapter"] == c) for c in chapters}
    notes = "; ".join(result["notes"])
    return [result["submission"], spreadsheet_safe(result.get("student") or ""),
            spreadsheet_safe(result.get("name") or ""), number(result["score"]),
            number(result["max_score"])] + [number(scores[c]) for c in chapters] + \
        [str(result.get("variant", 0)), spreadsheet_safe(notes)]


def spreadsheet_safe(text):
    """`text` as a CSV cell a spreadsheet shows as text: a leading = + - @ (a formula) gets a
    quote mark before it."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def lms_rows(roster, results, assignment):
    """A gradebook import for a course platform (Canvas's column names, which Moodle's CSV
    import maps too): one row per student of the roster, in roster order, keyed by the student
    id (SIS User ID); a student without a graded submission has an empty grade cell (the
    platform leaves it as it was), never a zero. `results` maps student id to its result."""
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment]]
    for entry in roster.entries:
        result = results.get(entry.student)
        grade = number(result["score"]) if result is not None else ""
        rows.append([spreadsheet_safe(entry.name or entry.student), "", entry.student, "", "",
                     grade])
    return rows


def write_csv(path, rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(rows)
    write_atomically(path, buffer.getvalue())


def junit(result):
    cases = []
    for t in result["tests"]:
        kind = t['chapter'] + '.' + t['mode'] + ('.hidden' if t.get('hidden') else '')
        attributes = f"classname={quoteattr(kind)} name={quoteattr(t['name'])}"
        if t["status"] == "passed":
            cases.append(f"    <testcase {attributes}/>")
        elif t["status"] == "skipped":
            cases.append(f"    <testcase {attributes}><skipped message={quoteattr(t['output'])}/>"
                         f"</testcase>")
        else:
            cases.append(f"    <testcase {attributes}><failure message="
                         f"{quoteattr(t['status'])}>{escape(t['output'])}</failure></testcase>")
    failures = sum(t["status"] in ("failed", "not reported") for t in result["tests"])
    skipped = sum(t["status"] == "skipped" for t in result["tests"])
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n'
            f"  <testsuite name={quoteattr(result['submission'])} tests=\"{len(result['tests'])}\" "
            f"failures=\"{failures}\" skipped=\"{skipped}\" time=\"{result['seconds']:.1f}\">\n"
            + "\n".join(cases) + "\n  </testsuite>\n</testsuites>\n")


UNREADABLE = "The submission could not be read: "


def unreadable(result):
    """Why `result`'s submission could not be read at all (a damaged archive), or None."""
    return next((n[len(UNREADABLE):].rstrip(".") for n in result.get("notes", [])
                 if n.startswith(UNREADABLE)), None)


def summary_text(result):
    lines = [f"{result['submission']}: {number(result['score'])} of "
             f"{number(result['max_score'])} points ({result['mode']} checks), "
             f"{variant_words(result)}."]
    lines += result["notes"]
    if result["ignored"]:
        shown = result["ignored"][:50]
        more = len(result["ignored"]) - len(shown)
        lines.append("Ignored (only the exercise files are graded): " + ", ".join(shown)
                     + (f", and {more} more" if more > 0 else "") + ".")
    return "\n".join(lines)


def variant_words(result):
    """"graded on variant N (alice's workbook, from the roster)" and the like."""
    variant = result.get("variant", 0)
    if not variant:
        return "graded on variant 0 (self-study: the workbook's own cases)"
    whose = f"{result['student']}'s workbook, " if result.get("student") else ""
    return f"graded on variant {variant} ({whose}from {result.get('variant_source', 'the roster')})"


def report(result):
    """report.md: the score and the notes; each chapter's checks with their points (why a check
    did not report); and each grader's report as the grader printed it (its record rendered by
    the grader's own code, result["screens"]), in a code block."""
    lines = ["# " + summary_text(result).replace("\n", "\n\n"), ""]
    for chapter in dict.fromkeys(t["chapter"] for t in result["tests"]):
        lines += ["", f"## {chapter}", ""]
        for t in (t for t in result["tests"] if t["chapter"] == chapter):
            mark = {"passed": "passed", "failed": "FAILED", "skipped": "not run",
                    "not reported": "NO RESULT"}[t["status"]]
            hidden = " [hidden check: a case the hand-out does not run]" if t.get("hidden") else ""
            lines.append(f"- {mark} ({number(t['score'])}/{number(t['max_score'])}) "
                         f"{t['name']}{hidden}")
            if t["status"] == "not reported" and t["output"]:
                lines += ["    " + line for line in t["output"].splitlines()[:12]]
        for screen in (s for s in result.get("screens", []) if s["chapter"] == chapter):
            lines += ["", f"The {screen['mode']} checks, as the grader reported them:", "",
                      fenced(screen["text"])]
    return "\n".join(lines) + "\n"


def write_atomically(path, text):
    temporary = path + ".partial"
    with open(temporary, "w") as f:
        f.write(text)
    os.replace(temporary, path)


def write_outputs(directory, result, chapters):
    """results.json (Gradescope, with the result's --visibility), gradebook.csv (one row),
    junit.xml, report.md, and the tool's own result.json, written last: its presence marks the
    submission as graded."""
    write_atomically(os.path.join(directory, "results.json"),
                     json.dumps(gradescope(result, result.get("visibility", "visible")),
                                indent=2) + "\n")
    write_csv(os.path.join(directory, "gradebook.csv"),
              [csv_header(chapters), csv_row(result, chapters)])
    write_atomically(os.path.join(directory, "junit.xml"), junit(result))
    write_atomically(os.path.join(directory, "report.md"), report(result))
    write_atomically(os.path.join(directory, "result.json"), json.dumps(result, indent=2) + "\n")


class Busy(Exception):
    """Another grading run holds the lock."""


class Lock:
    """An exclusive (or, with shared=True, shared) lock on a file, held while the block runs.
    With wait=False a lock another process holds raises Busy at once, naming the holder."""

    def __init__(self, path, shared=False, wait=True):
        self.path, self.shared, self.wait = path, shared, wait
        self.file = None

    def __enter__(self):
        self.file = open(self.path, "a+")
        flags = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        try:
            fcntl.flock(self.file, flags | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip()[:200]
            self.file.close()
            raise Busy(holder or "another grading run") from None
        if not self.shared:
            self.file.seek(0)
            self.file.truncate()
            self.file.write(f"pid {os.getpid()} since {time.strftime('%H:%M:%S')}")
            self.file.flush()
        return self

    def __exit__(self, *_):
        self.file.close()
