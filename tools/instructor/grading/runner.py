"""Grading one submission: a pristine copy of the workbook with the submission's exercise files
in it, built in its own directory, its graders run with a time limit, their XML read back."""
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time

from . import catch_xml, scoring, submission

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# Official grading adds each chapter's hidden checks to the pristine workbook: other cases of the
# same functions and kernels, which a hand-out never runs (solutions/NN_slug/).
HIDDEN_FILES = ("hidden_checks.cpp", "hidden_points.tsv")


class Options:
    def __init__(self, gpu=False, chapters=None, gpu_targets="75", time_limit=600,
                 build_time_limit=1800, visibility="visible"):
        self.gpu = gpu
        self.chapters = chapters
        self.gpu_targets = gpu_targets
        self.time_limit = time_limit
        self.build_time_limit = build_time_limit
        self.visibility = visibility

    def modes(self):
        return ["host", "gpu"] if self.gpu else ["host"]

    def describe(self):
        return (f"modes={','.join(self.modes())} chapters={','.join(self.chapters or [])} "
                f"gpu_targets={self.gpu_targets} time_limit={self.time_limit}")


def committed_file(source_root, path):
    """The bytes of `path` at the committed HEAD of `source_root`, or None where it has none."""
    shown = subprocess.run(["git", "-C", source_root, "show", f"HEAD:{path}"],
                           capture_output=True)
    return shown.stdout if shown.returncode == 0 else None


class Workbook:
    """The pristine workbook every submission is graded in: made once from the workbook's
    committed HEAD, as the hand-out (tools/instructor/make_handout.py), without solutions, plus
    each chapter's hidden checks (solutions/NN_slug/hidden_checks.cpp and hidden_points.tsv),
    so that nothing a submission holds can reach the graders, thresholds, harness or build
    files, and a submission tuned to the hand-out's cases meets others."""

    def __init__(self, cache, source_root=SOURCE_ROOT, chapters=None):
        commit = subprocess.run(["git", "-C", source_root, "rev-parse", "HEAD"],
                                capture_output=True, text=True)
        if commit.returncode != 0:
            sys.exit(f"grade: {source_root} is not a git checkout with a commit; the pristine "
                     f"workbook is made from the committed HEAD")
        self.commit = commit.stdout.strip()
        self.root = os.path.join(os.path.abspath(cache), "workbook-" + self.commit[:12])
        if not os.path.isdir(os.path.join(self.root, "workbook")):
            os.makedirs(cache, exist_ok=True)
            temporary = self.root + f".partial-{os.getpid()}"
            shutil.rmtree(temporary, ignore_errors=True)
            os.makedirs(temporary)
            archive = os.path.join(temporary, "handout.tar.gz")
            made = subprocess.run([sys.executable, os.path.join(source_root, "tools", "instructor",
                                                                "make_handout.py"),
                                   source_root, archive], capture_output=True, text=True)
            if made.returncode != 0:
                sys.exit("grade: making the pristine workbook failed:\n" + made.stderr)
            with tarfile.open(archive) as t:
                t.extractall(temporary)
            os.remove(archive)
            tree = os.path.join(temporary, "workbook")
            for chapter in os.listdir(os.path.join(tree, "chapters")):
                for name in HIDDEN_FILES:
                    data = committed_file(source_root, f"solutions/{chapter}/{name}")
                    if data is not None:
                        os.makedirs(os.path.join(tree, "solutions", chapter), exist_ok=True)
                        with open(os.path.join(tree, "solutions", chapter, name), "wb") as f:
                            f.write(data)
            try:
                os.rename(temporary, self.root)
            except OSError:  # another task made it first
                shutil.rmtree(temporary, ignore_errors=True)
        self.tree = os.path.join(self.root, "workbook")
        available = sorted(d for d in os.listdir(os.path.join(self.tree, "chapters"))
                           if os.path.isfile(os.path.join(self.tree, "grader", d, "points.tsv")))
        if chapters:
            unknown = [c for c in chapters if c not in available]
            if unknown:
                sys.exit(f"grade: no chapter {', '.join(unknown)}; the chapters are "
                         f"{', '.join(available)}")
            available = [c for c in available if c in chapters]
        self.chapters = available
        self.points = {c: scoring.load_points(self.tree, c) for c in self.chapters}

    def max_score(self, modes):
        return sum(check.points for c in self.chapters for check in self.points[c]
                   if check.mode in modes)


# The process groups running now (builds and graders), so that an interrupted tool stops them
# instead of leaving them to run on.
_running = set()
_running_lock = threading.RLock()  # the handler may interrupt its holder


def stop_everything(signum, _frame):
    """Signal handler (tools/instructor/grade installs it for SIGINT and SIGTERM): kills every build and
    grader this tool started, then exits. Finished results are already on disk."""
    with _running_lock:
        for pid in list(_running):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
    print(f"\ngrade: stopped by signal {signum}; finished results are kept, run the same "
          f"command again to go on", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def run_limited(command, cwd, log_path, env, limit):
    """Runs `command` in its own process group; kills the group when `limit` seconds pass.
    Returns (exit status or None on timeout, seconds)."""
    start = time.monotonic()
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        with _running_lock:
            _running.add(process.pid)
        try:
            status = process.wait(timeout=max(1.0, limit))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            status = None
        finally:
            with _running_lock:
                _running.discard(process.pid)
    return status, time.monotonic() - start


class Prepared:
    """A submission copied into its own workbook and built."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def prepare(workbook, path, directory, options):
    """Reads the submission at `path`, puts its exercise files in a fresh copy of the workbook
    under `directory`/work, and builds the graders there."""
    start = time.monotonic()
    ident = submission.submission_id(path)
    notes, refused = [], {}
    # A fresh work folder each time: an earlier, interrupted attempt may have left one behind
    # (with processes still writing into it when the tool was killed outright).
    for old in os.listdir(directory) if os.path.isdir(directory) else []:
        if old.startswith("work"):
            shutil.rmtree(os.path.join(directory, old), ignore_errors=True)
    work = os.path.join(directory, f"work-{os.getpid()}-{time.time_ns()}")
    os.makedirs(work)
    try:
        files = submission.read_files(path)
    except submission.SubmissionError as e:
        files = {}
        notes.append(f"The submission could not be read: {e}.")
    exercises, ignored = submission.exercise_files(files, workbook.chapters)
    source = os.path.join(work, "src")
    shutil.copytree(workbook.tree, source)
    for chapter in workbook.chapters:
        if chapter not in exercises:
            notes.append(f"{chapter}: no exercise file in the submission; its skeleton is graded.")
            continue
        name, data = exercises[chapter]
        text = data.decode("utf-8", errors="replace")
        problems = submission.include_problems(text, chapter, workbook.tree)
        if problems:
            refused[chapter] = "Not graded: " + "; ".join(problems) + "."
            notes.append(f"{chapter}: {refused[chapter]}")
            continue
        with open(os.path.join(source, "chapters", chapter, f"{chapter[3:]}_exercise.cu"),
                  "wb") as f:
            f.write(data)
    build = os.path.join(work, "build")
    log = os.path.join(work, "build.log")
    env = dict(os.environ)
    setup = ["meson", "setup", build, source, "-Dkernels=student",
             f"-Dgpu_targets={options.gpu_targets}", "-Ddocs=disabled",
             "-Dchapters=" + ",".join(workbook.chapters)]
    status, _ = run_limited(setup, work, log, env, options.build_time_limit)
    targets = [f"ch{c[:2]}_{c[3:]}_grader" for c in workbook.chapters]
    build_problem = None
    if status != 0:
        build_problem = "the workbook did not configure (see build.log)"
    else:
        status, _ = run_limited(["ninja", "-C", build, "-k", "0"] + targets, work, log, env,
                                options.build_time_limit)
        if status is None:
            build_problem = f"the build did not finish in {options.build_time_limit} s"
    return Prepared(ident=ident, path=path, directory=directory, work=work, build=build,
                    notes=notes, refused=refused, ignored=ignored, build_problem=build_problem,
                    fingerprint=submission.fingerprint(exercises, ignored),
                    build_seconds=time.monotonic() - start)


def compile_errors(log_path, chapter):
    """The compiler's first error lines about a chapter's exercise file."""
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    marker = f"chapters/{chapter}/"
    return [l.strip() for l in lines if marker in l and "error" in l][:8]


def run(workbook, prepared, options):
    """Runs the built graders of a prepared submission and scores them."""
    start = time.monotonic()
    private = os.path.join(prepared.work, "reports")
    scratch = os.path.join(prepared.work, "scratch")
    for d in (private, scratch):
        os.makedirs(d, exist_ok=True)
    log = os.path.join(prepared.work, "run.log")
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_MPS_PIPE_DIRECTORY",
                    "CUDA_MPS_LOG_DIRECTORY", "LANG", "LC_ALL")}
    env.update(HOME=scratch, TMPDIR=scratch, WORKBOOK_MEASUREMENTS_DIR=scratch, NO_COLOR="1")
    deadline = time.monotonic() + options.time_limit
    notes = list(prepared.notes)
    tests = []
    timed_out = no_gpu = False
    for mode in options.modes():
        for chapter in workbook.chapters:
            reported, reasons = {}, {}
            grader = os.path.join(prepared.build, f"ch{chapter[:2]}_{chapter[3:]}_grader")
            if chapter in prepared.refused:
                reasons[mode] = prepared.refused[chapter]
            elif prepared.build_problem:
                reasons[mode] = "not graded: " + prepared.build_problem
            elif not os.path.isfile(grader):
                errors = compile_errors(os.path.join(prepared.work, "build.log"), chapter)
                reasons[mode] = "the exercise file does not compile" + \
                    (":\n" + "\n".join(errors) if errors else " (see build.log)")
            elif timed_out or time.monotonic() >= deadline:
                reasons[mode] = f"not run: the time limit of {options.time_limit} s ran out"
            else:
                xml = os.path.join(private, f"{chapter}-{mode}.xml")
                if os.path.exists(xml):
                    os.remove(xml)
                env["WORKBOOK_GPU_TIMEOUT"] = str(max(1, int(deadline - time.monotonic())))
                with open(log, "a") as f:
                    f.write(f"\n==== {chapter} {mode} ====\n")
                status, _ = run_limited([grader, mode, "-r", "xml", "-o", xml], scratch, log,
                                        env, deadline - time.monotonic())
                try:
                    with open(xml, errors="replace") as f:
                        reported = catch_xml.parse(f.read())
                except OSError:
                    reported = {}
                if status is None:
                    timed_out = True
                    reasons[mode] = (f"the time limit of {options.time_limit} s ran out while "
                                     f"the {mode} checks ran; the grader was stopped")
                elif status == 77 and mode == "gpu":
                    reasons[mode] = "the GPU checks did not run on this machine (no usable GPU)"
                    no_gpu = True
                elif status < 0:
                    reasons[mode] = (f"the grader was killed by signal {-status} before this "
                                     f"check reported (a crash in your code?)")
                else:
                    reasons[mode] = (f"the grader exited (status {status}) before this check "
                                     f"reported: something ended the process early")
                points = {check.name for check in workbook.points[chapter] if check.mode == mode}
                stray = sorted(set(reported) - points)
                if stray:
                    notes.append(f"{chapter}: checks without points (not scored): "
                                 + "; ".join(stray))
            tests += scoring.score_chapter(chapter, workbook.points[chapter], [mode],
                                           {mode: reported}, reasons)
    hidden = [t for t in tests if t["hidden"]]
    if hidden:
        notes.append(f"{len(hidden)} of the checks {'was' if len(hidden) == 1 else 'were'} "
                     f"hidden: official grading runs {'it' if len(hidden) == 1 else 'them'} on "
                     f"cases the hand-out does not "
                     f"({scoring.number(sum(t['score'] for t in hidden))} of "
                     f"{scoring.number(sum(t['max_score'] for t in hidden))} points).")
    unreported = sum(t["status"] == "not reported" and t["chapter"] not in prepared.refused
                     and not t["output"].startswith("the exercise file does not compile")
                     for t in tests)
    if timed_out:
        notes.append(f"The time limit of {options.time_limit} s ran out; the checks that had "
                     f"not reported score zero.")
    elif unreported and not prepared.build_problem:
        notes.append(f"{unreported} check(s) did not report and score zero (see the report).")
    if prepared.build_problem:
        notes.append("Not graded: " + prepared.build_problem + ".")
    if no_gpu:
        notes.append("The GPU checks did not run: this machine has no usable GPU (their checks "
                     "score zero). Grade with --gpu on a machine with one.")
    tests.sort(key=lambda t: (t["chapter"], t["mode"] != "host"))
    for name in ("build.log", "run.log"):  # kept beside the results; the work folder goes
        if os.path.isfile(os.path.join(prepared.work, name)):
            shutil.copyfile(os.path.join(prepared.work, name),
                            os.path.join(prepared.directory, name))
    return {
        "submission": prepared.ident, "mode": "+".join(options.modes()),
        "workbook": workbook.commit, "options": options.describe(),
        "fingerprint": prepared.fingerprint,
        "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
        "seconds": prepared.build_seconds + time.monotonic() - start,
        "build_seconds": round(prepared.build_seconds, 1),
        "run_seconds": round(time.monotonic() - start, 1),
        "notes": notes, "ignored": prepared.ignored, "tests": tests, "complete": True,
    }


def finish(workbook, prepared, options, key=None, keep_work=False):
    """Runs a prepared submission's checks, writes its outputs (with `key`, what a class run
    compares to reuse it) and removes its work folder unless asked to keep it."""
    result = run(workbook, prepared, options)
    if key is not None:
        result["key"] = key
    scoring.write_outputs(prepared.directory, result, workbook.chapters)
    if not keep_work:
        shutil.rmtree(prepared.work, ignore_errors=True)
    return result


def grade_one(workbook, path, directory, options, key=None, keep_work=False):
    os.makedirs(directory, exist_ok=True)
    return finish(workbook, prepare(workbook, path, directory, options), options, key, keep_work)
