#!/usr/bin/env python3
"""The grading tool end to end, without a GPU (CI): a class of three submissions graded in host
mode on the workbook's first two chapters (the reference solutions, the untouched skeletons, and
a mix), killed mid-way and resumed; its scores and every output format checked; the same class
through Slurm must give the same class CSV; and planted submissions that try to cheat or hang
each end with zero for what they touched, and a reason.

    grading_ci.py SOURCE_ROOT WORKDIR [--slurm]
"""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

root = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
use_slurm = "--slurm" in sys.argv[3:]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import sample_class, scoring  # noqa: E402

tool = os.path.join(root, "tools", "instructor", "grade")
problems = []


def expect(condition, what):
    if not condition:
        problems.append(what)
        print("PROBLEM: " + what, flush=True)


chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                  if os.path.isfile(os.path.join(root, "grader", d, "points.tsv")))[:2]
first = chapters[0]


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


shutil.rmtree(work, ignore_errors=True)
folder = os.path.join(work, "class")
os.makedirs(folder)
# The reference solutions, the untouched skeletons and a mix (the first chapter done).
expected, host_total = sample_class.write(root, folder, chapters, ["host"])
common = ["--chapters", ",".join(chapters), "--time-limit", "300"]

# One machine, interrupted once its first result is in, then resumed.
out = os.path.join(work, "one-machine")
start = time.monotonic()
process = subprocess.Popen([sys.executable, tool, "--class", folder, "--out", out,
                            "--build-jobs", "1"] + common, start_new_session=True)
def class_rows(path):
    try:
        with open(path) as f:
            return list(csv.reader(f))[1:]
    except OSError:
        return []


while process.poll() is None and time.monotonic() - start < 900:
    if class_rows(os.path.join(out, "class.csv")):
        break
    time.sleep(0.2)
expect(process.poll() is None, "the class run ended before it could be interrupted")
os.killpg(process.pid, signal.SIGTERM)  # as Ctrl-C, scancel or a shutdown would
process.wait()
interrupted = class_rows(os.path.join(out, "class.csv"))
expect(1 <= len(interrupted) < 3, f"the interrupted run kept its finished results: {interrupted}")
resumed = subprocess.run([sys.executable, tool, "--class", folder, "--out", out] + common,
                         capture_output=True, text=True)
print(resumed.stderr, flush=True)
expect(resumed.returncode == 0, f"the resumed class run failed: {resumed.stderr}")
expect(f"{len(interrupted)} already graded, {3 - len(interrupted)} to grade" in resumed.stderr,
       "the resumed run grades only what is missing")
expect(re.search(r"\[3/3\] .*elapsed .*left", resumed.stderr) is not None,
       "the progress line (done/total, elapsed, estimate)")
again = subprocess.run([sys.executable, tool, "--class", folder, "--out", out] + common,
                       capture_output=True, text=True)
expect("3 already graded, 0 to grade" in again.stderr, "a re-run grades nothing new")

with open(os.path.join(out, "class.csv")) as f:
    rows = list(csv.reader(f))
expect(rows[0] == ["submission", "score", "max_score"] + [f"ch{c[:2]}" for c in chapters]
       + ["notes"], f"class.csv header: {rows[0]}")
scores = {r[0]: float(r[1]) for r in rows[1:]}
expect(scores == expected, f"class scores {scores}, expected {expected}")
for name, score in expected.items():
    directory = os.path.join(out, name)
    with open(os.path.join(directory, "results.json")) as f:
        gradescope = json.load(f)
    expect(scoring.validate_gradescope(gradescope) == [],
           f"{name}: results.json: {scoring.validate_gradescope(gradescope)}")
    expect(gradescope["score"] == score, f"{name}: results.json score {gradescope['score']}")
    expect(sum(t["max_score"] for t in gradescope["tests"]) == host_total,
           f"{name}: results.json max scores")
    with open(os.path.join(directory, "gradebook.csv")) as f:
        row = list(csv.reader(f))
    expect(len(row) == 2 and float(row[1][1]) == score, f"{name}: gradebook.csv {row}")
    suite = ElementTree.parse(os.path.join(directory, "junit.xml")).getroot().find("testsuite")
    cases = suite.findall("testcase")
    passed = [c for c in cases if c.find("failure") is None and c.find("skipped") is None]
    expect(len(cases) == len(gradescope["tests"]), f"{name}: junit.xml holds every check")
    expect(len(passed) == sum(t["status"] == "passed" for t in gradescope["tests"]),
           f"{name}: junit.xml agrees with results.json")
    with open(os.path.join(directory, "report.md")) as f:
        report = f.read()
    expect(f"{scoring.number(score)} of {scoring.number(host_total)} points" in report,
           f"{name}: report.md states the score")
with open(os.path.join(out, "reference", "report.md")) as f:
    expect("notes.txt" in f.read(), "a file outside the exercise files is listed as ignored")

# The same class as a Slurm job array: the same class.csv.
if use_slurm:
    slurm_out = os.path.join(work, "slurm")
    run = subprocess.run([sys.executable, tool, "--class", folder, "--out", slurm_out, "--slurm",
                          "--wait"] + common, capture_output=True, text=True, timeout=1500)
    print(run.stderr, flush=True)
    expect(run.returncode == 0, f"Slurm grading failed: {run.stdout}{run.stderr}")
    with open(os.path.join(slurm_out, "slurm", "grade-array.sbatch")) as f:
        script = f.read()
    expect("--array=0-2" in script and "--gres" not in script,
           "one task per submission; no GPU asked for host checks")
    with open(os.path.join(out, "class.csv")) as a, open(os.path.join(slurm_out,
                                                                      "class.csv")) as b:
        expect(a.read() == b.read(), "Slurm's class.csv equals the one-machine one")

# Planted submissions on the first chapter: each ends with zero for what it touched, and says why.
planted = os.path.join(work, "planted")
header = b"#include <chrono>\n#include <cstdio>\n#include <cstdlib>\n#include <thread>\n" \
         b"#include <unistd.h>\n"


def inject(source, statement):
    """`statement` at the start of the first host-callable function of `source`."""
    lines = source.decode().split("\n")
    for i, line in enumerate(lines):
        if re.match(r"^(__host__ __device__ )?[A-Za-z_][\w:<>, *&]* \w+\(.*\)\s*\{\s*$", line) \
                and not line.startswith(("__global__", "__device__")):
            lines.insert(i + 1, f"#ifndef __CUDA_ARCH__\n  {statement}\n#endif")
            return ("\n".join(lines)).encode()
    sys.exit("grading_ci.py: no host function to plant code in")


name = f"{first[3:]}_exercise.cu"
solution = sample_class.exercise_file(root, "solutions", first)
skeleton = sample_class.exercise_file(root, "chapters", first)
fake = (b'\nnamespace {\nconst int planted_files = [] {\n'
        b'  for (const char* p : {"results.json", "../results.json", "../reports/results.json"}) {\n'
        b'    if (FILE* f = std::fopen(p, "w")) {\n'
        b'      std::fputs("{\\"score\\": 100, \\"tests\\": []}", f);\n      std::fclose(f);\n    }\n  }\n'
        b'  for (const char* p : {"report.xml", "../report.xml"}) {\n'
        b'    if (FILE* f = std::fopen(p, "w")) {\n'
        b'      std::fputs("<Catch><TestCase name=\\"x\\"><OverallResult success=\\"true\\"/>'
        b'</TestCase></Catch>", f);\n      std::fclose(f);\n    }\n  }\n  return 0;\n}();\n}\n')
plants = {
    "exit_in_static_initializer": (header + solution +
                                   b"\nnamespace {\nconst int planted = (std::exit(0), 0);\n}\n",
                                   "exited (status 0)"),
    "quick_exit_in_host_code": (header + inject(solution, "std::quick_exit(0);"),
                                "exited (status 0)"),
    "underscore_exit_in_host_code": (header + inject(solution, "_exit(0);"), "exited (status 0)"),
    "prints_all_tests_passed": (header + skeleton + b'\nnamespace {\nconst int planted = [] {\n'
                                b'  std::printf("All tests passed (99 assertions in 9 test '
                                b'cases)\\n");\n  return 0;\n}();\n}\n', ""),
    "writes_fake_results": (header + skeleton + fake, ""),
    "includes_the_solution": (f'#include "{os.path.join(root, "solutions", first, name)}"\n'
                              .encode(), "Not graded"),
    "sleeps_past_the_time_limit": (header + inject(solution,
                                                   "std::this_thread::sleep_for(std::chrono::hours(1));"),
                                   "time limit"),
}
for plant, (source, _) in plants.items():
    put(os.path.join(planted, plant, "chapters", first, name), source)
run = subprocess.run([sys.executable, tool, "--class", planted, "--out",
                      os.path.join(work, "planted-out"), "--chapters", first, "--time-limit", "30"],
                     capture_output=True, text=True, timeout=1800)
print(run.stderr, flush=True)
expect(run.returncode == 0, f"grading the planted class failed: {run.stderr}")
for plant, (_, reason) in plants.items():
    with open(os.path.join(work, "planted-out", plant, "result.json")) as f:
        result = json.load(f)
    lost = [t for t in result["tests"] if t["status"] != "passed"]
    expect(result["score"] < result["max_score"] and lost,
           f"{plant}: scored {result['score']} of {result['max_score']}")
    for t in lost:
        expect(t["score"] == 0 and t["output"].strip() and reason in t["output"],
               f"{plant}: '{t['name']}' scores {t['score']} with '{t['output'][:200]}'; "
               f"expected zero and a reason with '{reason}'")
    if plant in ("prints_all_tests_passed", "writes_fake_results"):
        expect(result["score"] == 0, f"{plant}: a skeleton that claims success scored "
                                     f"{result['score']}")
with open(os.path.join(work, "planted-out", "writes_fake_results", "results.json")) as f:
    expect(json.load(f)["score"] == 0, "the planted results.json did not replace the real one")

# Official grading's hidden checks: the reference's report says which checks were hidden, and a
# submission tuned to the hand-out's local cases (a chapter's wrong answer that passes its
# local check and fails a hidden one) loses exactly the hidden check's points.
with open(os.path.join(out, "reference", "result.json")) as f:
    reference = json.load(f)
hidden = [t for t in reference["tests"] if t["hidden"]]
expect(hidden and all(t["status"] == "passed" for t in hidden),
       f"the reference passes the hidden checks of {', '.join(chapters)}: {hidden}")
expect(any(re.search(r"of the checks (was|were) hidden", n) for n in reference["notes"]),
       f"the reference's notes say which checks were hidden: {reference['notes']}")
with open(os.path.join(out, "reference", "report.md")) as f:
    expect("[hidden check" in f.read(), "report.md marks the hidden checks")
tuned = None
for c in chapters:
    spec_path = os.path.join(root, "solutions", c, "wrong_answers.ini")
    listing = subprocess.run([sys.executable, os.path.join(root, "tools", "maintainer",
                                                           "make_wrong_answer.py"), "list",
                              spec_path], capture_output=True, text=True).stdout.splitlines()
    for line in listing:
        answer, mode, text = line.split("|")[:3]
        if mode == "host" and "hidden:" in text:
            tuned = (c, answer, text)
            break
    if tuned:
        break
expect(tuned is not None, f"a host wrong answer of {', '.join(chapters)} tuned to the local "
                          f"cases (rejected by a hidden check) exists")
if tuned:
    c, answer, text = tuned
    exercise = os.path.join(work, "tuned", "tuned", "chapters", c, f"{c[3:]}_exercise.cu")
    os.makedirs(os.path.dirname(exercise), exist_ok=True)
    made = subprocess.run([sys.executable, os.path.join(root, "tools", "maintainer",
                                                        "make_wrong_answer.py"), "make",
                           os.path.join(root, "solutions", c, "wrong_answers.ini"), answer,
                           os.path.join(root, "solutions", c, f"{c[3:]}_exercise.cu"),
                           os.path.join(root, "chapters", c, f"{c[3:]}_exercise.cu"), exercise],
                          capture_output=True, text=True)
    expect(made.returncode == 0, f"the tuned exercise {answer} is made: {made.stderr}")
    run = subprocess.run([sys.executable, tool, "--class", os.path.join(work, "tuned"), "--out",
                          os.path.join(work, "tuned-out"), "--chapters", c],
                         capture_output=True, text=True, timeout=1800)
    expect(run.returncode == 0, f"grading the tuned submission failed: {run.stderr}")
    with open(os.path.join(work, "tuned-out", "tuned", "result.json")) as f:
        result = json.load(f)
    lost = [t for t in result["tests"] if t["score"] < t["max_score"]]
    expect(lost and all(t["hidden"] for t in lost),
           f"{answer}: only hidden checks are lost: {[(t['name'], t['hidden']) for t in lost]}")
    expect(any(t["status"] == "passed" and not t["hidden"] for t in result["tests"]),
           f"{answer}: its local checks pass")
    print(f"tuned to the local cases ({c} {answer}): lost "
          + ", ".join(f"{t['name']} ({scoring.number(t['max_score'])})" for t in lost), flush=True)

if problems:
    print(f"\ngrading_ci.py: {len(problems)} problem(s)")
    sys.exit(1)
print(f"grading: a class of 3 ({', '.join(f'{k} {scoring.number(v)}' for k, v in sorted(expected.items()))}"
      f" of {scoring.number(host_total)}) interrupted and resumed, every format checked"
      + (", Slurm's class.csv the same" if use_slurm else "") + f"; {len(plants)} planted "
      f"submissions scored zero where they cheated or hung; a submission tuned to the local "
      f"cases lost its hidden checks")
