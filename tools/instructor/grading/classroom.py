"""A whole class: every submission of a folder, one after another on one GPU (while the next ones
build on the CPU), or on Slurm (builds and host checks as a job array on CPU nodes, the GPU
checks as a job array on GPU nodes); resumable, into one class CSV and, with a roster, a
gradebook keyed by student id."""
import collections
import concurrent.futures
import json
import os
import shlex
import socket
import subprocess
import sys
import threading
import time

from . import checks, orals, pristine, runner, scoring, submission
from .prepare import decide_variant

PROGRESS = "progress.json"  # a submission's phase and state, for whoever shows the class's


def submissions_in(folder):
    if not os.path.isdir(folder):
        sys.exit(f"grade: {folder} is not a folder of submissions")
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder)
                   if submission.is_submission(os.path.join(folder, n)))
    idents = [submission.submission_id(p) for p in paths]
    duplicates = sorted({i for i in idents if idents.count(i) > 1})
    if duplicates:
        sys.exit(f"grade: two submissions are named {', '.join(duplicates)}; rename one")
    return paths


def key_of(workbook, path, options):
    """What a result depends on: the workbook's commit, the options and the exercise files."""
    try:
        files = submission.read_files(path)
    except submission.SubmissionError:
        files = {}
    exercises, ignored = submission.exercise_files(files, workbook.chapters)
    variant = decide_variant(submission.submission_id(path), files, options)
    return (f"{workbook.commit} {options.describe()} variant={variant['variant']} "
            f"refused={bool(variant['refused'])} {submission.fingerprint(exercises, ignored)}")


def shown(names, most=10):
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most
                                      else "")


def check_roster(paths, options, quiet=False):
    """With a roster, refuses before grading anything a class holding a submission that is on
    no row of it (every one named, with the roster), and says which students of the roster
    handed in nothing (they get an empty grade in the gradebook, not a zero)."""
    roster = options.roster
    if roster is None:
        return
    idents = [submission.submission_id(p) for p in paths]
    strangers = [i for i in idents if roster.entry_for(i) is None]
    if strangers:
        sys.exit(f"grade: {len(strangers)} submission(s) are on no row of the roster "
                 f"{roster.path}: {shown(strangers)}. A submission is named after its student "
                 f"id (alice.tar.gz, alice/), or the roster's column `submission` names it; "
                 f"nothing was graded")
    handed_in = {roster.entry_for(i).student for i in idents}
    missing = [e.student for e in roster.entries if e.student not in handed_in]
    if missing and not quiet:
        say(f"grade: {len(missing)} student(s) of the roster handed in nothing: "
            f"{shown(missing)} (their grade is left empty in gradebook-import.csv)")


def results_folder(out, path):
    """Where a submission's results go: OUT/submissions/<id>/, apart from the tool's own files
    (class.csv, slurm/, the pristine workbook), whatever the submission is called."""
    return os.path.join(out, "submissions", submission.submission_id(path))


def check_gpu(workbook, options):
    """With --gpu, refuses before grading anything where the GPU checks cannot run."""
    if options.gpu:
        reason = workbook.check_gpu()
        if reason:
            sys.exit(f"grade: --gpu, but the GPU checks cannot run here, so nothing was graded: "
                     f"{reason}")


def finished(directory, key):
    """The stored result when it is complete and was graded the same way."""
    try:
        with open(os.path.join(directory, "result.json")) as f:
            result = json.load(f)
        return result if result.get("complete") and result.get("key") == key else None
    except (OSError, ValueError):
        return None


def to_grade(workbook, paths, out, options, or_built=False):
    """(path, results folder, key) of each submission of `paths` without a finished result graded
    the same way (nor, `or_built`, a build of it left for its GPU phase)."""
    found = [(p, results_folder(out, p), key_of(workbook, p, options)) for p in paths]
    return [(p, d, k) for p, d, k in found
            if finished(d, k) is None and not (or_built and built(d, k))]


def built(directory, key):
    """Whether the build phase left this submission, graded the same way, for its GPU phase."""
    try:
        with open(os.path.join(directory, runner.BUILT, "state.json")) as f:
            return json.load(f).get("key") == key
    except (OSError, ValueError):
        return False


def write_class(out, workbook, paths, options=None, final=False):
    """class.csv from every finished result (unfinished submissions are left out), and with a
    roster the gradebook import (one row per student, keyed by id) and roster-check.csv (every
    student and every submission, and what became of it); when the class is done (`final`), each
    graded student's viva and exam sheet (orals.py). Returns how many rows class.csv holds."""
    roster = options.roster if options is not None else None
    rows = [scoring.csv_header(workbook.chapters)]
    by_student, status, code, handed = {}, {}, {}, {}
    for path in paths:
        ident = submission.submission_id(path)
        directory = results_folder(out, path)
        entry = roster.entry_for(ident) if roster is not None else None
        if entry is not None:
            handed[entry.student] = ident
        try:
            with open(os.path.join(directory, "result.json")) as f:
                result = json.load(f)
        except (OSError, ValueError):
            result = None
        if result is None or not result.get("complete"):
            status[ident] = "not graded yet (or an error to retry)" if result is None else \
                "not graded: " + (result.get("error") or "an error to retry")
            continue  # not graded: an error to retry
        if entry is not None:  # the roster as it is now says whose it is
            result = dict(result, student=entry.student, name=entry.name)
            by_student[entry.student] = result
        why = scoring.unreadable(result)
        status[ident] = f"graded 0: the submission could not be read: {why}" if why else "graded"
        rows.append(scoring.csv_row(result, workbook.chapters))
        if final:
            code[result.get("student") or ident] = graded_code(path, result, workbook)
    scoring.write_csv(os.path.join(out, "class.csv"), rows)
    try:
        if code:
            orals.write(out, code, os.path.join(workbook.build, pristine.ANALYZER),
                        options.secret if options is not None else None, workbook.tree)
    except (RuntimeError, OSError) as e:  # class.csv stands: say why the orals do not
        say(f"grade: no vivas or exam sheets were written: {e}")
    if roster is not None:
        scoring.write_csv(os.path.join(out, "gradebook-import.csv"),
                          scoring.lms_rows(roster, by_student, options.assignment))
        check = [["student", "name", "submission", "status"]]
        for entry in roster.entries:
            ident = handed.get(entry.student)
            check.append([entry.student, scoring.spreadsheet_safe(entry.name), ident or "",
                          status.get(ident, "no submission")])
        scoring.write_csv(os.path.join(out, "roster-check.csv"), check)
    return len(rows) - 1


def graded_code(path, result, workbook):
    """{chapter: its exercise file's text} of the chapters `result` graded, read from `path`."""
    graded = {t["chapter"] for t in result["tests"]}
    try:
        found, _ = submission.exercise_files(submission.read_files(path), workbook.chapters)
    except submission.SubmissionError:
        return {}
    return {c: data.decode("utf-8", "replace") for c, (_, data) in found.items() if c in graded}


def duration(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 \
        else f"{seconds // 60}m{seconds % 60:02d}s"


def mark(directory, phase, state, **details):
    """Records a submission's phase ("build", "checks") and its state ("running", "done",
    "error") in its results folder, with where it runs (a Slurm job's partition and id); the
    record keeps the last of each phase under "phases"."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, PROGRESS)
    try:
        with open(path) as f:
            phases = json.load(f).get("phases", {})
    except (OSError, ValueError):
        phases = {}
    record = {"phase": phase, "state": state, "time": time.time(), "host": socket.gethostname(),
              "partition": os.environ.get("SLURM_JOB_PARTITION"),
              "job": os.environ.get("SLURM_JOB_ID")}
    record.update(details)
    phases[phase] = dict(record)  # where each phase last ran, and how it ended
    record["phases"] = phases
    scoring.write_atomically(path, json.dumps(record) + "\n")


# nice(1) of a build queued behind the one whose checks come next.
QUEUED_BUILD_NICENESS = 10


def grade_class(workbook, folder, out, options, build_jobs=2, keep_work=False):
    """Grades every submission in `folder` that has no finished result for the same workbook,
    options and files; builds run `build_jobs` at a time while one submission at a time runs
    its checks (the GPU to itself)."""
    start = time.monotonic()
    paths = submissions_in(folder)
    check_roster(paths, options)
    say(f"grade: {len(paths)} submissions in {folder}")
    workbook.ensure_built(progress=say)
    say(f"grade: the pristine workbook is ready after {time.monotonic() - start:.0f} s")
    check_gpu(workbook, options)
    todo = to_grade(workbook, paths, out, options)
    total, done = len(paths), len(paths) - len(todo)
    start = time.monotonic()  # the estimates count from here, the pristine build done
    say(f"grade: {done} already graded, {len(todo)} to grade "
        f"(the pristine workbook is ready)")
    write_class(out, workbook, paths, options)
    graded_now, errors = 0, []
    now = {"building": {}, "checking": None}  # what runs: for the heartbeat
    lock = threading.Lock()

    def describe():
        with lock:
            parts = [f"{done} of {total} graded, {duration(time.monotonic() - start)} so far"]
            if now["checking"]:
                ident, since = now["checking"]
                parts.append(f"checks of {ident} running for {time.monotonic() - since:.0f} s")
            if now["building"]:
                parts.append("building " + ", ".join(
                    f"{i} ({time.monotonic() - s:.0f} s)" for i, s in now["building"].items()))
        return "grade: " + "; ".join(parts)

    def heartbeat():  # what the class run is doing, whenever it has said nothing for 30 s
        if time.monotonic() - LAST_SAID[0] >= 30:
            say(describe())

    def prepare(item, niceness):
        path, directory, _ = item
        ident = submission.submission_id(path)
        with lock:
            now["building"][ident] = time.monotonic()
        os.makedirs(directory, exist_ok=True)
        mark(directory, "build", "running")
        try:
            prepared = runner.prepare(workbook, path, directory, options, niceness=niceness)
            # The host checks need only the CPU: they run here, beside the GPU checks of the
            # submission before.
            return prepared, runner.run_checks(workbook, prepared, options, ["host"])
        finally:
            with lock:
                now["building"].pop(ident, None)

    # Builds run ahead of the checks, but at most `build_jobs` + 1 submissions ahead: a large
    # class does not fill the disk with build directories waiting for the GPU.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, build_jobs)) as pool, \
            pristine.Ticker(heartbeat, 1.0):
        pending = collections.deque()
        upcoming = iter(enumerate(todo, done + 1))

        def fill():
            while len(pending) < max(1, build_jobs) + 1:
                number, item = next(upcoming, (None, None))
                if item is None:
                    return
                say(f"[{number}/{total}] {submission.submission_id(item[0])}: building")
                # The build whose checks come next has the CPU first; those queued behind it
                # yield (nice), so that the GPU waits for one build, not for all of them at once.
                pending.append((item, pool.submit(prepare, item,
                                                  QUEUED_BUILD_NICENESS if pending else 0)))

        fill()
        while pending:
            (path, directory, key), future = pending.popleft()
            fill()
            prepared, host_checked = future.result()
            say(f"[{done + 1}/{total}] {prepared.ident}: built in "
                f"{prepared.build_seconds:.0f} s, host checks run in "
                f"{host_checked.seconds:.0f} s" + ("; GPU checks running" if options.gpu else ""))
            mark(directory, "checks", "running")
            with lock:
                now["checking"] = (prepared.ident, time.monotonic())
            result = checks.finish(workbook, prepared, options, key, keep_work, host_checked)
            with lock:
                now["checking"] = None
            mark(directory, "checks", "done" if result["complete"] else "error",
                 error=result["error"])
            write_class(out, workbook, paths, options)
            done += 1
            graded_now += 1
            elapsed = time.monotonic() - start
            left = elapsed / graded_now * (total - done)
            if result["complete"]:
                outcome = (f"{scoring.number(result['score'])}/"
                           f"{scoring.number(result['max_score'])}")
                if scoring.unreadable(result):
                    outcome += f" (it could not be read: {scoring.unreadable(result)})"
            else:
                outcome = f"NOT GRADED, to retry: {result['error']}"
                errors.append((result["submission"], result["error"]))
            say(f"[{done}/{total}] {result['submission']}: {outcome}; "
                f"elapsed {duration(elapsed)}, about {duration(left)} left")
    rows = write_class(out, workbook, paths, options, final=True)
    say(f"grade: class.csv holds {rows} of {total} submissions: "
        f"{os.path.join(out, 'class.csv')} ({len(todo)} graded in "
        f"{duration(time.monotonic() - start)})")
    for ident, error in errors:
        say(f"grade: {ident} could not be graded ({error}); run the same command again to "
            f"retry it")
    return rows == total


LAST_SAID = [time.monotonic()]


def say(text):
    LAST_SAID[0] = time.monotonic()
    print(text, file=sys.stderr, flush=True)


def task_submission(folder, options, index):
    """Submission number `index` of the folder (sorted by name), for a task of a job array."""
    paths = submissions_in(folder)
    check_roster(paths, options, quiet=True)
    if not 0 <= index < len(paths):
        sys.exit(f"grade: task {index}, but the folder holds {len(paths)} submissions")
    return paths[index]


def grade_task(workbook, folder, out, options, index, phase=None):
    """One task of a Slurm job array: submission number `index` of the folder. `phase` "build"
    prepares it and runs its host checks (on a CPU node; with --gpu its build is left for the
    GPU phase), "checks" runs its GPU checks from that build (on a GPU node, building nothing),
    None does both (one task grades the whole submission)."""
    path = task_submission(folder, options, index)
    directory = results_folder(out, path)
    key = key_of(workbook, path, options)
    if finished(directory, key) is not None:
        say(f"grade: {path} is already graded")
        return True
    os.makedirs(directory, exist_ok=True)
    try:
        with scoring.Lock(os.path.join(directory, ".lock"), wait=False):
            if phase == "build" and options.gpu and built(directory, key):
                say(f"grade: {path} is already built; its GPU checks follow")
                return True
            if phase == "checks":
                return gpu_phase(workbook, path, directory, options, key)
            workbook.ensure_built(progress=say)
            if phase is None:
                check_gpu(workbook, options)
            mark(directory, "build", "running")
            start = time.monotonic()
            if phase == "build":
                result = runner.build_phase(workbook, path, directory, options, key)
            else:
                result = checks.grade_one(workbook, path, directory, options, key)
            if result is None:  # the GPU checks follow, in the GPU phase's task
                mark(directory, "build", "done", seconds=time.monotonic() - start)
                say(f"grade: {path} built and its host checks run in "
                    f"{time.monotonic() - start:.0f} s; its GPU checks follow")
                return True
    except scoring.Busy as e:
        say(f"grade: {path} is being graded by another task ({e})")
        return False
    return reported(directory, path, result, "build" if phase else "checks")


def gpu_phase(workbook, path, directory, options, key):
    """The GPU checks of a submission whose build phase is done (this node builds nothing)."""
    if not built(directory, key):
        mark(directory, "checks", "error", error="no build: its build task has not run")
        say(f"grade: {path} has no build for these options: run its build task first (the GPU "
            f"phase builds nothing)")
        return False
    workbook.ensure_built(build=False)
    reason = workbook.check_gpu()
    if reason:
        mark(directory, "checks", "error", error="the GPU checks cannot run here: " + reason)
        say(f"grade: the GPU checks cannot run on {socket.gethostname()}, so {path} was not "
            f"graded (its build is kept for a retry): {reason}")
        return False
    mark(directory, "checks", "running")
    result = runner.check_phase(workbook, directory, options, key)
    return reported(directory, path, result, "checks")


def reported(directory, path, result, phase):
    mark(directory, phase, "done" if result["complete"] else "error", error=result["error"],
         score=result["score"], max_score=result["max_score"])
    if not result["complete"]:
        say(f"grade: {path} could not be graded ({result['error']}); run the task again")
    return result["complete"]


class Jobs:
    """What the Slurm tasks of a class do: the options every task is given, and the sbatch
    scripts of the pristine build, the build array, the GPU array and the gather job."""

    def __init__(self, tool, folder, out, options, count, partitions, extra=()):
        self.tool, self.folder, self.out, self.options = tool, folder, out, options
        self.count, self.partitions, self.extra = count, partitions, list(extra)
        self.common = ["--out", out] + options.arguments()

    def command(self, *arguments):
        return " ".join(shlex.quote(x) for x in [sys.executable, self.tool, "--class",
                                                 self.folder] + self.common + list(arguments))

    def script(self, name, partition, minutes, body, array=False, gpu=False):
        lines = ["#!/bin/bash", f"#SBATCH --job-name=workbook-{name}",
                 f"#SBATCH --output={os.path.join(self.out, 'slurm', name + ('-%a' if array else '') + '.log')}",
                 f"#SBATCH --time={minutes}", "#SBATCH --cpus-per-task=2"]
        if array:
            lines.append(f"#SBATCH --array=0-{self.count - 1}")
        if gpu:
            # One GPU per task, and the node to itself: speed is graded.
            lines += ["#SBATCH --gres=gpu:1", "#SBATCH --exclusive"]
        if partition:
            lines.append(f"#SBATCH --partition={partition}")
        lines += [f"#SBATCH {e}" for e in self.extra]
        lines += ["set -euo pipefail", body]
        return "\n".join(lines) + "\n"

    def scripts(self):
        """{name: text}: pristine (the pristine workbook, once), build (an array: a submission's
        build and host checks), checks (with --gpu, an array: its GPU checks) and gather."""
        cpu, gpu = self.partitions
        options = self.options
        build_minutes = (options.build_time_limit + options.time_limit) // 60 + 5
        scripts = {
            "pristine": self.script("pristine", cpu, options.build_time_limit // 60 + 5,
                                    self.command("--phase", "pristine")),
            "build": self.script("build", cpu, build_minutes,
                                 self.command("--phase", "build", "--task")
                                 + ' "$SLURM_ARRAY_TASK_ID"', array=True),
            "gather": self.script("gather", cpu, 30, self.command("--gather")),
        }
        if options.gpu:
            scripts["checks"] = self.script("checks", gpu, options.time_limit // 60 + 5,
                                            self.command("--phase", "checks", "--task")
                                            + ' "$SLURM_ARRAY_TASK_ID"', array=True, gpu=True)
        return scripts


def submit(script_path, after=None, kind="afterok"):
    """Submits an sbatch script (after the jobs `after`, by `kind` of dependency) and returns
    the job's id; exits saying why when sbatch refuses it."""
    command = ["sbatch", "--parsable"]
    if after:
        command += [f"--dependency={kind}:{':'.join(after)}", "--kill-on-invalid-dep=yes"]
    submitted = subprocess.run(command + [script_path], capture_output=True, text=True)
    if submitted.returncode != 0:
        sys.exit(f"grade: sbatch refused {script_path}: " + submitted.stderr.strip())
    return submitted.stdout.strip().split(";")[0]


def grade_slurm(workbook, tool, folder, out, options, partitions=(None, None), wait=False,
                extra=(), build_here=False, build_jobs=2):
    """Grades the class on Slurm: the pristine workbook as a CPU job, then a CPU job array of
    the submissions' builds and host checks, then (with --gpu) a GPU job array of their GPU
    checks, task N after build task N (the GPU nodes build nothing), then a job that gathers
    class.csv. With `build_here` the pristine workbook and the builds run here first, and only
    the GPU checks and the gather are submitted. With `wait`, shows every submission's progress
    until the class is done and reports whether class.csv holds every submission."""
    paths = submissions_in(folder)
    check_roster(paths, options)
    if not paths:
        sys.exit(f"grade: no submissions in {folder}")
    slurm = os.path.join(out, "slurm")
    os.makedirs(slurm, exist_ok=True)
    jobs = Jobs(tool, folder, out, options, len(paths), partitions, extra)
    scripts = jobs.scripts()
    for name, text in scripts.items():
        scoring.write_atomically(os.path.join(slurm, f"grade-{name}.sbatch"), text)
    path_of = {name: os.path.join(slurm, f"grade-{name}.sbatch") for name in scripts}
    submitted = {}
    if build_here:
        workbook.ensure_built(progress=say)
        build_here_all(workbook, paths, out, options, build_jobs)
    else:
        submitted["pristine"] = submit(path_of["pristine"])
        submitted["build"] = submit(path_of["build"], [submitted["pristine"]])
    if options.gpu:
        # Task N of the GPU array starts when task N of the build array has succeeded.
        submitted["checks"] = submit(path_of["checks"],
                                     [submitted["build"]] if "build" in submitted else None,
                                     "aftercorr")
    submitted["gather"] = submit(path_of["gather"], list(submitted.values()), "afterany")
    say("grade: submitted to Slurm: " + ", ".join(f"{name} job {job}" for name, job in
                                                  submitted.items())
        + f" ({len(paths)} submissions); class.csv follows in {os.path.join(out, 'class.csv')}")
    scoring.write_atomically(os.path.join(slurm, "jobs.json"), json.dumps(submitted) + "\n")
    if not wait:
        return True
    watch_slurm(paths, out, submitted)
    rows = write_class(out, workbook, paths, options, final=True)
    say(f"grade: class.csv holds {rows} of {len(paths)} submissions")
    return rows == len(paths)


def build_here_all(workbook, paths, out, options, build_jobs):
    """--build-here: every submission's build phase on this machine (`build_jobs` at a time),
    before the GPU phase is submitted."""
    todo = to_grade(workbook, paths, out, options, or_built=True)
    say(f"grade: building {len(todo)} submission(s) here before the GPU checks are submitted "
        f"({len(paths) - len(todo)} built or graded already)")

    def one(item):
        path, directory, key = item
        mark(directory, "build", "running")
        start = time.monotonic()
        runner.build_phase(workbook, path, directory, options, key)
        mark(directory, "build", "done", seconds=time.monotonic() - start)
        return submission.submission_id(path), time.monotonic() - start

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, build_jobs)) as pool:
        for number, (ident, seconds) in enumerate(pool.map(one, todo), 1):
            say(f"[build {number}/{len(todo)}] {ident}: built, host checks run, {seconds:.0f} s")


def watch_slurm(paths, out, submitted, every=10.0):
    """Shows the class's progress while its Slurm jobs run: each submission's phase as it
    changes, and a count of every phase every minute; returns when no job of the class is left
    in Slurm's queue."""
    idents = [submission.submission_id(p) for p in paths]
    seen, last_count, start = {}, 0.0, time.monotonic()
    while True:
        queue = subprocess.run(["squeue", "-h", "-j", ",".join(submitted.values()), "-o",
                                "%i %j %T"], capture_output=True, text=True)
        waiting = [line.split() for line in queue.stdout.splitlines() if line.strip()]
        for ident in idents:
            try:
                with open(os.path.join(out, "submissions", ident, PROGRESS)) as f:
                    record = json.load(f)
            except (OSError, ValueError):
                continue
            state = (record["phase"], record["state"])
            if seen.get(ident) != state:
                seen[ident] = state
                where = record.get("partition") or record.get("host")
                extra = f": {record['error']}" if record.get("error") else \
                    f", {scoring.number(record['score'])}/{scoring.number(record['max_score'])}" \
                    if record.get("max_score") is not None else ""
                say(f"[{record['phase']}] {ident}: {record['state']}"
                    + (f" on {where}" if where else "") + extra)
        if time.monotonic() - last_count >= 60 or not waiting:
            last_count = time.monotonic()
            counts = collections.Counter(f"{p} {s}" for p, s in seen.values())
            pristine = [w for w in waiting if w[1] == "workbook-pristine"]
            say(f"grade: {duration(time.monotonic() - start)}: "
                + (f"pristine workbook {pristine[0][2].lower()}; " if pristine else "")
                + (", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "nothing started")
                + f"; {len(waiting)} job(s) in the queue")
        if not waiting:
            return
        time.sleep(every)
