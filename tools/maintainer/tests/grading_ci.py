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
import tarfile
import time
import xml.etree.ElementTree as ElementTree

root = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
use_slurm = "--slurm" in sys.argv[3:]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import scoring  # noqa: E402
import run_gpu_grading  # noqa: E402
import hostile_class  # noqa: E402
from hostile_class import graded, put  # noqa: E402

tool = os.path.join(root, "tools", "instructor", "grade")


def grade(*arguments, **kw):
    """tools/instructor/grade with `arguments`, its output captured."""
    return subprocess.run([sys.executable, tool, *arguments], capture_output=True, text=True, **kw)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, failures as problems  # noqa: E402


chapters = scoring.manifest.chapters(root)[:2]
first = chapters[0]


shutil.rmtree(work, ignore_errors=True)
folder = os.path.join(work, "class")
os.makedirs(folder)
# The reference solutions, the untouched skeletons and a mix (the first chapter done).
expected, host_total = run_gpu_grading.write_class(root, folder, chapters, ["host"])
# One pristine workbook per chapter set, shared by every run below (but the one as another user).
cache = os.path.join(work, "pristine")
common = ["--chapters", ",".join(chapters), "--time-limit", "300", "--workbook-cache", cache]

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
resumed = grade("--class", folder, "--out", out, *common)
print(resumed.stderr, flush=True)
expect(resumed.returncode == 0, f"the resumed class run failed: {resumed.stderr}")
expect(f"{len(interrupted)} already graded, {3 - len(interrupted)} to grade" in resumed.stderr,
       "the resumed run grades only what is missing")
expect(re.search(r"\[3/3\] .*elapsed .*left", resumed.stderr) is not None,
       "the progress line (done/total, elapsed, estimate)")
again = grade("--class", folder, "--out", out, *common)
expect("3 already graded, 0 to grade" in again.stderr, "a re-run grades nothing new")

with open(os.path.join(out, "class.csv")) as f:
    rows = list(csv.reader(f))
expect(rows[0] == ["submission", "student", "name", "score", "max_score"]
       + [f"ch{c[:2]}" for c in chapters] + ["variant", "notes"], f"class.csv header: {rows[0]}")
scores = {r[0]: float(r[3]) for r in rows[1:]}
expect(scores == expected, f"class scores {scores}, expected {expected}")
for name, score in expected.items():
    directory = os.path.join(out, "submissions", name)
    gradescope = graded(out, name, "results.json")
    expect(scoring.validate_gradescope(gradescope) == [],
           f"{name}: results.json: {scoring.validate_gradescope(gradescope)}")
    expect(gradescope["score"] == score, f"{name}: results.json score {gradescope['score']}")
    expect(sum(t["max_score"] for t in gradescope["tests"]) == host_total,
           f"{name}: results.json max scores")
    with open(os.path.join(directory, "gradebook.csv")) as f:
        row = list(csv.reader(f))
    expect(len(row) == 2 and float(row[1][3]) == score, f"{name}: gradebook.csv {row}")
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
with open(os.path.join(out, "submissions", "reference", "report.md")) as f:
    expect("notes.txt" in f.read(), "a file outside the exercise files is listed as ignored")

# One renderer: the skeleton's report.md shows chapter 01's host checks exactly as its grader
# (the pristine one: the skeleton is untouched) prints them to a student, but for the last lines,
# which name the student's details file. The grader runs as official grading runs it (a hidden
# seed: a local run's fresh cases come from a seed it prints, official grading's from one it
# does not).
commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                        text=True).stdout.strip()
with open(os.path.join(out, "submissions", "skeleton", "report.md")) as f:
    section = f.read().split(f"\n## {first}\n")[-1].split("\n## ")[0]
block = re.search(r"\n(`{3,})text\n(.*?)\n\1\n", section, re.S)
grader = next(os.path.join(cache, d, "build", f"ch{first[:2]}_{first[3:]}_grader")
              for d in os.listdir(cache) if d.startswith(f"build-{commit[:12]}-")
              and os.path.isdir(os.path.join(cache, d)))
screen = subprocess.run([grader, "host"], capture_output=True, text=True, cwd=work,
                        env=dict(os.environ, WORKBOOK_FEEDBACK_FILE=os.path.join(work, "d.txt"),
                                 WORKBOOK_VARIANT="0", WORKBOOK_HIDDEN_SEED="1")).stdout
screen = screen[:screen.find("Every failure in full")].rstrip("\n")
expect("\nFAILED " in screen and block is not None and block.group(2) == screen,
       f"report.md's {first} host checks are not the screen the grader printed, first failed "
       f"check and all:\n{block.group(2) if block else None}\n---- the screen ----\n{screen}")

# The same class on Slurm (tools/maintainer/tests/start_slurm.sh: partitions cpu and gpu, the
# latter without a GPU): as job arrays, the same class.csv; and with --gpu, the phases split:
# the builds and host checks run as CPU jobs, the GPU checks as GPU jobs that build nothing
# (here they find no GPU, which is an error to retry with the builds kept).
if use_slurm:
    slurm_out = os.path.join(work, "slurm")
    run = grade("--class", folder, "--out", slurm_out, "--slurm", "--wait", *common, timeout=1500)
    print(run.stderr, flush=True)
    expect(run.returncode == 0, f"Slurm grading failed: {run.stdout}{run.stderr}")
    with open(os.path.join(slurm_out, "slurm", "grade-build.sbatch")) as f:
        script = f.read()
    expect("--array=0-2" in script and "--gres" not in script,
           "one task per submission; no GPU asked for host checks")
    expect(not os.path.exists(os.path.join(slurm_out, "slurm", "grade-checks.sbatch")),
           "no GPU job without --gpu")
    with open(os.path.join(out, "class.csv")) as a, open(os.path.join(slurm_out,
                                                                      "class.csv")) as b:
        expect(a.read() == b.read(), "Slurm's class.csv equals the one-machine one")
    expect(re.search(r"\[build\] reference: done on ", run.stderr) is not None,
           "--wait shows each submission's progress")

    split_out = os.path.join(work, "slurm-gpu")
    split = grade("--class", folder, "--out", split_out, "--slurm", "--gpu", "--cpu-partition",
                  "cpu", "--gpu-partition", "gpu", "--wait", *common, timeout=1500)
    print(split.stderr, flush=True)
    expect(split.returncode != 0 and "class.csv holds 0 of 3" in split.stderr,
           f"without a GPU on the gpu partition nothing is graded: {split.stderr[-600:]}")
    with open(os.path.join(split_out, "slurm", "grade-build.sbatch")) as f:
        build_script = f.read()
    with open(os.path.join(split_out, "slurm", "grade-checks.sbatch")) as f:
        checks_script = f.read()
    expect("--partition=cpu" in build_script and "--gres" not in build_script
           and "--phase build" in build_script, "the builds are CPU jobs")
    expect("--partition=gpu" in checks_script and "--gres=gpu:1" in checks_script
           and "--phase checks" in checks_script, "the GPU checks are GPU jobs")
    for name in expected:
        directory = os.path.join(split_out, "submissions", name)
        try:
            with open(os.path.join(directory, "progress.json")) as f:
                phases = json.load(f)["phases"]
            with open(os.path.join(directory, "built", "state.json")) as f:
                state = json.load(f)
        except (OSError, ValueError, KeyError) as e:
            expect(False, f"{name}: no record of the two phases: {e}")
            continue
        expect(phases["build"]["state"] == "done" and phases["build"]["partition"] == "cpu"
               and phases["checks"]["state"] == "error" and phases["checks"]["partition"] == "gpu"
               and "GPU checks cannot run" in phases["checks"]["error"],
               f"{name}: built on the CPU partition, its GPU checks tried on the GPU one: {phases}")
        host_tests = state["checked"]["tests"]
        expect(host_tests and all(t["mode"] == "host" for t in host_tests)
               and sum(t["score"] for t in host_tests) == expected[name],
               f"{name}: the build job ran the host checks ({len(host_tests)} checks)")
    compiled = [n for n in os.listdir(os.path.join(split_out, "slurm"))
                if n.startswith("checks-") and re.search(r"Compiling|nvcc|ninja",
                                                         open(os.path.join(split_out, "slurm",
                                                                           n)).read())]
    expect(not compiled, f"a GPU job built something: {compiled}")
    # A submission builds its kernels for the device alone, which the pristine judge loads, and
    # no GPU grader.
    try:
        with tarfile.open(os.path.join(split_out, "submissions", "reference", "built",
                                       "layers.tar.gz")) as layers:
            built_files = {os.path.basename(m.name) for m in layers.getmembers()}
    except (OSError, tarfile.TarError) as e:
        built_files = {f"no layers: {e}"}
    expect({f"ch{c[:2]}_{c[3:]}_kernels.fatbin" for c in chapters} <= built_files
           and not any(n.endswith("_gpu_grader") for n in built_files),
           f"reference: its kernels built, no GPU grader: "
           f"{sorted(n for n in built_files if 'fatbin' in n or 'gpu_grader' in n)}")

# A hostile class on the first chapter (hostile_class.py): every way a submission once took
# marks, took them from classmates or spoiled the class, each beside honest classmates.

hostile = os.path.join(work, "hostile")
hostile_out = os.path.join(work, "hostile-out")
os.makedirs(hostile_out, exist_ok=True)
markers = {"env": "GRADING-CI-SECRET-IN-THE-ENVIRONMENT", "out": "GRADING-CI-SECRET-IN-OUT",
           "class": "GRADING-CI-SECRET-IN-THE-CLASS-FOLDER"}
put(os.path.join(hostile_out, "secret.txt"), markers["out"].encode())
put(os.path.join(work, "class-secret.txt"), markers["class"].encode())
pristine_feedback = os.path.join(cache, f"workbook-{commit[:12]}", "workbook",
                                 "grader", "harness", "feedback_message.hpp")
secrets = {
    "readable": [os.path.join(hostile_out, "secret.txt"), os.path.join(work, "class-secret.txt"),
                 os.path.join(root, ".git", "HEAD"), "/etc/shadow"],
    "writable": [os.path.join(hostile_out, "submissions", "a_honest", "result.json"),
                 os.path.join(hostile_out, "submissions", "a_honest", "results.json"),
                 os.path.join(hostile_out, "class.csv"), pristine_feedback],
    "markers": list(markers.values()) + ["refs/heads", "--out"],
    "paths": [root, os.path.join(root, "tools"), cache],  # what the sandbox's view never shows
}
host_checks = [c.name for c in scoring.load_points(root, first) if c.mode == "host"]
full = sum(c.points for c in scoring.load_points(root, first) if c.mode == "host")
cases = hostile_class.write(root, hostile, first, secrets, host_checks)
environment = dict(os.environ, GRADING_CI_SECRET=markers["env"])
hostile_command = ["--class", hostile, "--out", hostile_out, "--workbook-cache", cache,
                   "--chapters", first, "--time-limit", "10", "--build-jobs", "2"]  # two hang
start = time.monotonic()
run = grade(*hostile_command, timeout=1800, env=environment)
hostile_seconds = time.monotonic() - start
print(run.stderr[-6000:], flush=True)
expect(run.returncode == 0, f"the hostile class did not complete: {run.stderr[-2000:]}")
expect(re.search(r"\] ar_corrupt: 0/[0-9.]+ \(it could not be read: ", run.stderr),
       "the console names an archive that could not be read")


def judge_class(out, cases):
    """hostile_class.judge on the class graded into `out`."""
    results, logs = hostile_class.read_graded(out, cases)
    for problem in hostile_class.judge(cases, results, full, logs):
        expect(False, problem)


judge_class(hostile_out, cases)
for ident in ("a_honest", "z_honest_skeleton"):
    expect(graded(hostile_out, ident, "results.json")["score"] == (
        full if ident == "a_honest" else 0), f"{ident}'s results.json was changed by a classmate")
with open(pristine_feedback, "rb") as f:
    expect(f.read() == subprocess.run(["git", "-C", root, "show",
                                       "HEAD:grader/harness/feedback_message.hpp"],
                                      capture_output=True).stdout,
           "the pristine workbook's feedback_message.hpp is unchanged")
with open(os.path.join(hostile_out, "class.csv")) as f:
    class_rows = list(csv.reader(f))
expect(len(class_rows) == len(cases) + 1, f"class.csv holds every hostile submission: "
                                          f"{len(class_rows) - 1} of {len(cases)}")
left = hostile_class.leftover_processes(r"sleep 4242|sandbox_init|grading/build")
expect(not left, f"processes left behind by the hostile class: {left}")
again = grade(*hostile_command, timeout=600, env=environment)
expect(f"{len(cases)} already graded, 0 to grade" in again.stderr,
       f"a re-run of the hostile class reuses every result: {again.stderr[-500:]}")

# A fork bomb and a memory hog beside two honest classmates, who build while they run their
# checks (two builds at once): each submission's processes and memory are its own.
limits = os.path.join(work, "limits")
limit_cases = hostile_class.limits_class(root, limits, first)
# The time limit lets the hog reach its memory limit (16 GiB at most) on a slow machine.
run = grade("--class", limits, "--out", limits + "-out", "--workbook-cache", cache, "--chapters",
            first, "--time-limit", "60", "--build-jobs", "2", timeout=1800)
expect(run.returncode == 0, f"the class of a fork bomb and a memory hog did not complete: "
                            f"{run.stderr[-2000:]}")
judge_class(limits + "-out", limit_cases)

one = os.path.join(work, "one")
put(os.path.join(one, "honest", "chapters", first, f"{first[3:]}_exercise.cu"),
    run_gpu_grading.exercise_file(root, "solutions", first))
base = ["--class", one, "--out", hostile_out, "--workbook-cache", cache, "--chapters", first,
        "--time-limit", "20"]
gpu = grade(*base, "--gpu", timeout=600)
expect(gpu.returncode != 0 and "--gpu, but the GPU checks cannot run here" in gpu.stderr
       and not os.path.exists(os.path.join(hostile_out, "submissions", "honest")),
       f"--gpu without a usable GPU refuses before grading: {gpu.returncode} {gpu.stderr[-400:]}")
infrastructure_cases = 1
if os.geteuid() == 0:
    tiny = os.path.join(work, "tiny-scratch")
    os.makedirs(tiny, exist_ok=True)
    # Smaller than a subject's view: the disk fills while the submission is built.
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tiny", tiny], check=True)
    try:
        full_disk = grade(*base, "--scratch", tiny, timeout=600)
    finally:
        subprocess.run(["umount", "-l", tiny])
    stored = graded(hostile_out, "honest")
    expect(full_disk.returncode != 0 and not stored["complete"] and "retry" in full_disk.stderr,
           f"a full disk is an error to retry: {full_disk.returncode} {stored.get('error')} "
           f"{full_disk.stderr[-400:]}")
    infrastructure_cases += 1
# A pristine workbook written by another user (a cache two accounts share): a submission's
# build copies what its subject needs and writes nothing there, so it serves as the tool's own:
# graded in full, and the error above retried, not reused.
foreign = os.path.join(work, "foreign-cache")
shutil.copytree(cache, foreign, symlinks=True)
for entry in os.listdir(foreign):
    if entry.startswith("build-") and os.path.isdir(os.path.join(foreign, entry)):
        subprocess.run(["chown", "-R", "-h", "4242:4242", os.path.join(foreign, entry)], check=True)
at = base.index("--workbook-cache") + 1
foreign_run = grade(*base[:at], foreign, *base[at + 1:], timeout=600)
shutil.rmtree(foreign, ignore_errors=True)

first_grading = graded(hostile_out, "honest")
expect(foreign_run.returncode == 0 and first_grading["complete"]
       and first_grading["score"] == full and "0 already graded, 1 to grade" in foreign_run.stderr,
       f"a pristine workbook another user wrote grades in full, the error before retried: "
       f"{foreign_run.returncode} {first_grading.get('error')} {foreign_run.stderr[-400:]}")
hidden_visibility = grade(*base, "--visibility", "hidden", timeout=600)
expect("0 already graded, 1 to grade" in hidden_visibility.stderr,
       "another --visibility grades again (it is part of the reuse key)")
seeds = [first_grading["hidden_seed"], graded(hostile_out, "honest")["hidden_seed"]]
hidden_results = graded(hostile_out, "honest", "results.json")
expect(hidden_results["visibility"] == "hidden" and hidden_results["tests"]
       and all(t["visibility"] == "hidden" for t in hidden_results["tests"]),
       f"results.json honours --visibility hidden: {hidden_results['visibility']}, "
       f"{sorted(set(t['visibility'] for t in hidden_results['tests']))}")
# The hidden checks' seed: drawn for each grading (in no file of the workbook), recorded, and
# given back with --hidden-seed to reproduce a grading; the reference passes with each.
again = grade(*base, "--hidden-seed", str(seeds[0]), timeout=600)
reproduced = graded(hostile_out, "honest")
shipped = subprocess.run(["git", "-C", root, "grep", "-l", "-F", str(seeds[0])],
                         capture_output=True, text=True).stdout
expect(isinstance(seeds[0], int) and seeds[0] != seeds[1] and not shipped
       and reproduced["hidden_seed"] == seeds[0] and reproduced["score"] == full,
       f"two gradings draw two hidden seeds ({seeds}, in no shipped file: {shipped!r}), and "
       f"--hidden-seed grades with the one recorded ({reproduced['hidden_seed']}, "
       f"{reproduced['score']} of {full}): {again.stderr[-400:]}")
slow = os.path.join(work, "slow")
put(os.path.join(slow, "sleeper", "chapters", first, f"{first[3:]}_exercise.cu"),
    hostile_class.in_prediction(hostile_class.HEADER + run_gpu_grading.exercise_file(
        root, "solutions", first), "  std::this_thread::sleep_for(std::chrono::hours(1));"))
first_run = subprocess.Popen([sys.executable, tool, "--class", slow, "--out", hostile_out,
                              "--workbook-cache", cache, "--chapters", first, "--time-limit",
                              "300"],
                             stderr=subprocess.PIPE, text=True)
deadline = time.monotonic() + 300
while time.monotonic() < deadline and not hostile_class.leftover_processes(  # its own judge
        rf"ch{first[:2]}_{first[3:]}_grader host --record \S*/sleeper-"):
    time.sleep(0.2)
second = grade(*base, timeout=600)
expect(second.returncode != 0 and "another grading run is using" in second.stderr,
       f"a second run on the same --out is refused: {second.stderr[-300:]}")
first_run.kill()  # SIGKILL: the tool cannot clean up; its sandboxes must end with it
first_run.wait()
time.sleep(2)
left = hostile_class.leftover_processes(r"sandbox_init|grading/build|sleep_for")
expect(not left, f"processes left behind by a tool killed outright: {left}")
infrastructure_cases += 4

# As a user other than root, the sandbox is made in a user namespace: the same submission is
# graded in full there (CI runs as root, so it makes such a user).
as_user = None
if os.geteuid() == 0 and shutil.which("useradd") and shutil.which("setpriv"):
    import pwd
    subprocess.run(["useradd", "--system", "--no-create-home", "workbook-ci-grader"],
                   capture_output=True)
    try:
        as_user = pwd.getpwnam("workbook-ci-grader")
    except KeyError:
        expect(False, "a user other than root could not be made")
if as_user is not None:
    user_work = os.path.join(work, "as-user")
    os.makedirs(user_work)
    shutil.copytree(one, os.path.join(user_work, "class"))
    subprocess.run(["chown", "-R", f"{as_user.pw_uid}:{as_user.pw_gid}", user_work], check=True)
    # The system's Python and tools: a Python installed in root's home is not the user's.
    system_path = "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin"
    user_python = shutil.which("python3", path=system_path) or sys.executable
    user_env = dict(os.environ, HOME=user_work, GIT_CONFIG_COUNT="1",
                    GIT_CONFIG_KEY_0="safe.directory", GIT_CONFIG_VALUE_0="*",
                    TMPDIR=user_work, PATH=system_path)
    as_user_run = subprocess.run(
        ["setpriv", f"--reuid={as_user.pw_uid}", f"--regid={as_user.pw_gid}", "--clear-groups",
         user_python, tool, "--class", os.path.join(user_work, "class"), "--out",
         os.path.join(user_work, "out"), "--chapters", first, "--time-limit", "60"],
        capture_output=True, text=True, timeout=900, env=user_env)
    user_score = (graded(os.path.join(user_work, "out"), "honest") or {}).get("score")
    expect(as_user_run.returncode == 0 and user_score == full,
           f"graded as a user other than root (a user namespace): {user_score} of {full}; "
           f"{as_user_run.stderr[-800:]}")
    infrastructure_cases += 1

# Official grading's hidden checks: the reference's report says which checks were hidden, and a
# submission tuned to the hand-out's local cases (a chapter's wrong answer that passes its
# local check and fails a hidden one) loses exactly the hidden check's points and those of the
# checks it certifies.
reference = graded(out, "reference")
hidden = [t for t in reference["tests"] if t["hidden"]]
expect(hidden and all(t["status"] == "passed" for t in hidden),
       f"the reference passes the hidden checks of {', '.join(chapters)}: {hidden}")
expect(any(re.search(r"of the checks (was|were) hidden", n) for n in reference["notes"]),
       f"the reference's notes say which checks were hidden: {reference['notes']}")
with open(os.path.join(out, "submissions", "reference", "report.md")) as f:
    expect("[hidden check" in f.read(), "report.md marks the hidden checks")
tuned = None
for c in chapters:
    chapter = scoring.manifest.load(root, c)
    for wrong in chapter.wrong_answers:
        if wrong.mode == "host" and wrong.passes and all(
                chapter.check(f).hidden for f in wrong.fails):
            tuned = (c, wrong.name)
            break
    if tuned:
        break
expect(tuned is not None, f"a host wrong answer of {', '.join(chapters)} tuned to the local "
                          f"cases (rejected by a hidden check) exists")
if tuned:
    c, answer = tuned
    exercise = os.path.join(work, "tuned", "tuned", "chapters", c, f"{c[3:]}_exercise.cu")
    os.makedirs(os.path.dirname(exercise), exist_ok=True)
    made = subprocess.run([sys.executable, os.path.join(root, "grader", "tools", "manifest_views.py"),
                           "make-wrong", root, c, answer,
                           os.path.join(root, "solutions", c, f"{c[3:]}_exercise.cu"),
                           os.path.join(root, "chapters", c, f"{c[3:]}_exercise.cu"), exercise],
                          capture_output=True, text=True)
    expect(made.returncode == 0, f"the tuned exercise {answer} is made: {made.stderr}")
    run = grade("--class", os.path.join(work, "tuned"), "--out", os.path.join(work, "tuned-out"),
                *common, timeout=1800)
    expect(run.returncode == 0, f"grading the tuned submission failed: {run.stderr}")
    result = graded(os.path.join(work, "tuned-out"), "tuned")
    # The class's chapters are graded (their pristine workbook is built): only c's count here.
    lost = [t for t in result["tests"] if t["score"] < t["max_score"] and t["chapter"] == c]
    chapter = scoring.manifest.load(root, c)
    certified = {chapter.check(i).name for h in chapter.checks if h.hidden and h.name in
                 {t["name"] for t in lost} for i in h.certifies}
    expect(lost and {t["name"] for t in lost if not t["hidden"]} == certified and certified
           and "hidden_seed" in result,
           f"{answer}: only hidden checks are lost, and the checks they certify ({certified}): "
           f"{[(t['name'], t['hidden']) for t in lost]}")
    expect(any(t["status"] == "passed" and not t["hidden"] and t["chapter"] == c
               for t in result["tests"]),
           f"{answer}: its other local checks pass")
    print(f"tuned to the local cases ({c} {answer}): lost "
          + ", ".join(f"{t['name']} ({scoring.number(t['max_score'])})" for t in lost), flush=True)

if problems:
    print(f"\ngrading_ci.py: {len(problems)} problem(s)")
    sys.exit(1)
print(f"grading: a class of 3 ({', '.join(f'{k} {scoring.number(v)}' for k, v in sorted(expected.items()))}"
      f" of {scoring.number(host_total)}) interrupted and resumed, every format checked"
      + (", Slurm's class.csv the same and its GPU phase apart from the builds" if use_slurm
         else "") + f"; a hostile class of "
      f"{len(cases)} submissions ({len(cases) - 2} hostile, {hostile_seconds:.0f} s), a fork "
      f"bomb and a memory hog beside two honest classmates and "
      f"{infrastructure_cases} faults of the machine all defended; a submission tuned to the "
      f"local cases lost its hidden checks and the local ones they certify")
