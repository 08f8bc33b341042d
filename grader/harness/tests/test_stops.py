#!/usr/bin/env python3
"""What a grader prints when its run ends inside a check, and where its details go.

    test_stops.py STOP_FIXTURE RENDER_RECORD

STOP_FIXTURE (stop_fixture.cpp) fails its first check plainly, and its second ends the program
as WORKBOOK_STOP_FIXTURE says. Each stop must be told in the compact report, the check it
happened in first, with what to do; the first check's failure must still be there; the checks
after it must not be reported as run; and the details file must hold what the check printed
before it ended; a call the student's code did not answer fails its check with its advice shown as
the hint. Its record (--record) must say as much: RENDER_RECORD renders it as the report
the grader printed, and a run that exit() ended closes it naming the check. Also:
WORKBOOK_FEEDBACK=full prints the whole report in place; a details file
that cannot be written puts the whole report after the compact one; a bad WORKBOOK_FEEDBACK is
refused; with -r xml the output is Catch2's as before (the summary with each failure's reason).
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

fixture, render_record = sys.argv[1:3]
problems = []
STOPPING = "2: a check whose code ends the program"


def expect(condition, what, shown=""):
    if not condition:
        problems.append(what)
        print("PROBLEM: " + what + ("\n" + shown if shown else ""))


def run(stop, *extra, feedback_file=None, feedback=None):
    env = dict(os.environ)
    env.pop("WORKBOOK_FEEDBACK", None)
    if stop:
        env["WORKBOOK_STOP_FIXTURE"] = stop
    if feedback_file:
        env["WORKBOOK_FEEDBACK_FILE"] = feedback_file
    if feedback:
        env["WORKBOOK_FEEDBACK"] = feedback
    return subprocess.run([fixture, "host", *extra], capture_output=True, text=True, env=env,
                          timeout=120)


def flat(text):
    return " ".join(text.split())


with tempfile.TemporaryDirectory() as scratch:
    details = os.path.join(scratch, "details.txt")
    record = os.path.join(scratch, "record.jsonl")
    cases = [("exit", 3, "Your code called exit() while this check ran"),
             ("segv", -signal.SIGSEGV, "The grader crashed while this check ran (SIGSEGV"),
             ("term", -signal.SIGTERM, "The grader was stopped while this check ran (SIGTERM")]
    for stop, code, headline in cases:
        done = run(stop, "--record", record, feedback_file=details)
        report = done.stdout
        shown = report + done.stderr
        expect(done.returncode == code, f"{stop}: exit {done.returncode}, not {code}", shown)
        first = flat(report.split("\n\n")[0])  # the first line, wrapped to 80 columns
        expect(first.endswith("2 of 2 checks failed; the grader stopped early."),
               f"{stop}: the first line does not say the run stopped: {first!r}")
        block = report.split("\n\n")[1] if "\n\n" in report else ""
        expect(block.startswith("FAILED " + STOPPING) and headline in flat(block)
               and "What to do:" in block,
               f"{stop}: the report does not start with the stopping check, how it stopped and "
               "what to do", shown)
        expect("the first check failed." in report and "Hint: the first check's hint." in report,
               f"{stop}: the earlier check's failure is not in the report", shown)
        expect("3: a check after it" not in report, f"{stop}: a check that never ran is reported",
               shown)
        with open(details) as f:
            kept = f.read()
        expect("printed by the check before it ended" in kept and "the first check failed." in kept,
               f"{stop}: the details file lost what was printed before the stop", kept)
        expect(details in report, f"{stop}: the report does not name the details file", shown)
        rendered = subprocess.run([render_record, record], capture_output=True, text=True)
        expect(rendered.returncode == 0 and rendered.stdout == report,
               f"{stop}: the record's report is not the one printed", rendered.stdout)
        with open(record) as f:
            last = json.loads(f.read().splitlines()[-1])
        expect(last.get("end") == ("exit" if stop == "exit" else "crashed") and
               (stop != "exit" or last["stopped"]["check"] == STOPPING),
               f"{stop}: the record's last line does not say how the run ended: {last}")
        if stop == "exit":
            expect(f'workbook-grader: exit() was called while the check "{STOPPING}" ran'
                   in done.stderr, "exit: the grading tool's mark on standard error is gone",
                   shown)

    # A call the student's code did not answer: the check fails with its advice as the hint, on
    # the compact screen, in the details file and in the record; the checks after it run.
    done = run("fault", "--record", record, feedback_file=details)
    advice = "Hint: an integer division by zero in your code is the usual cause."
    block = next((b for b in done.stdout.split("\n\n") if b.startswith("FAILED " + STOPPING)), "")
    expect(done.returncode == 1 and "3: a check after it" in done.stdout and
           "Your code crashed (SIGFPE) while f(0) ran." in flat(block) and advice in flat(block),
           "fault: the compact report does not give the unanswered call and its advice",
           done.stdout + done.stderr)
    with open(details) as f:
        kept = f.read()
    expect(advice in flat(kept), "fault: the details file does not give the advice", kept)
    rendered = subprocess.run([render_record, record], capture_output=True, text=True)
    expect(rendered.returncode == 0 and rendered.stdout == done.stdout,
           "fault: the record's report is not the one printed", rendered.stdout)

    # Ran to the end: the summary, and where the details are.
    done = run(None, feedback_file=details)
    expect(done.returncode == 1 and done.stdout.startswith(
        "stop_fixture host checks, variant 0 (self-study): 1 of 3 checks failed.\n"),
        "a plain run's first line", done.stdout)
    expect("  FAILED   1: a check that fails plainly\n  passed   " + STOPPING + "\n" in done.stdout,
           "a plain run's summary", done.stdout)

    # The whole report in place, as before.
    done = run(None, feedback="full")
    expect(done.stdout.startswith("Graded on variant 0") and "FAILED:" in done.stdout and
           "first check failed." in done.stdout and "==== Summary (host checks) ====" in
           done.stdout and "printed by the check before it ended" in done.stdout,
           "WORKBOOK_FEEDBACK=full does not print the whole report in place", done.stdout)

    # No details file to be had: the whole report follows the compact one.
    missing = os.path.join(scratch, "no-such-folder", "details.txt")
    done = run(None, feedback_file=missing)
    report, _, rest = done.stdout.partition("Every failure in full follows")
    expect(done.returncode == 1 and "1 of 3 checks failed." in report and
           "could not be written" in rest and "FAILED:" in rest and
           "printed by the check before it ended" in rest,
           "an unwritable details file does not put the whole report after the compact one",
           done.stdout)

    done = run(None, feedback="everything")
    expect(done.returncode == 2 and "WORKBOOK_FEEDBACK" in done.stderr,
           "a bad WORKBOOK_FEEDBACK is not refused", done.stderr)

    # Class grading's reporter: Catch2's output, and the summary with each failure's reason.
    xml = os.path.join(scratch, "report.xml")
    done = run(None, "-r", "xml", "-o", xml)
    with open(xml) as f:
        written = f.read()
    expect(done.stdout.startswith("Graded on variant 0") and
           "  FAILED   1: a check that fails plainly\n           the first check failed.\n" in
           done.stdout and "<TestCase" in written and "of 3 checks failed" not in done.stdout,
           "with -r xml the output is not what it was", done.stdout)

print(f"stops: {len(cases)} ways a check ends the program, an unanswered call, the whole report "
      f"in place, after the report, refused and with a reporter: {len(problems)} problems")
sys.exit(1 if problems else 0)
