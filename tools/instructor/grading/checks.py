"""The checks of a prepared submission (prepare.py): each chapter's pristine judge run outside the
sandbox, calling the student's code in it, with its record (grader/harness/record.hpp) written to
a file of the tool's, read strictly (grader/tools/record.py), scored, and its report rendered
from the record; and the submission's result.
"""
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import time

from . import sandbox, scoring
from .prepare import prepare
from .pristine import grader_name, kernels_name
from .scoring import record

GRADER_MEMORY = 16 << 30
# How many judges run their GPU checks at once (they take turns with the GPU: the lock).
GPU_GRADERS_AT_ONCE = 3
# The exit status of a grader whose GPU checks cannot use the GPU (grader_main.cpp).
GPU_UNUSABLE = 77


class Checked:
    """What the checks of a prepared submission gave so far: the tests scored, the notes, the
    fault of the machine that stopped them (`infrastructure`), whether the time limit ran out,
    the seconds they took, each grader's report as it printed it ({"chapter", "mode", "text"},
    rendered from its record) and the hidden checks' seed. A Slurm class runs the host checks
    with the build and the GPU checks in a task of their own: the second phase goes on from the
    first's (to_json)."""

    def __init__(self, tests=(), notes=(), infrastructure=None, timed_out=False, seconds=0.0,
                 screens=(), hidden_seed=None):
        self.tests, self.notes, self.screens = list(tests), list(notes), list(screens)
        self.infrastructure, self.timed_out, self.seconds = infrastructure, timed_out, seconds
        self.hidden_seed = hidden_seed

    def to_json(self):
        return dict(vars(self))

    @classmethod
    def from_json(cls, data):
        return cls(**data)


def run_judge(workbook, prepared, options, chapter, deadline, log, hidden_seed=None,
              mode="host", gpu_lock=None):
    """Runs one chapter's checks in `mode` ("host" or "gpu"), its whole report appended to
    `log`: the pristine judge (the checks and none of the student's code,
    grader/harness/subject_link.hpp) runs here, outside the sandbox, and writes its record to a
    file of this tool's; it calls the student's functions in the subject, which it starts through
    the sandbox (WORKBOOK_SUBJECT_WRAPPER). What the subject did (a crash, a hang, exit(), a
    flood) is the judge's to report, check by check. The GPU checks run on the submission's
    kernels, which the judge loads and launches itself (common/cuda/kernel_module.hpp), their
    checks holding `gpu_lock`. Returns (what it reported {check: (status, message)}, why the
    checks that did not report are missing, notes, the fault of the machine it met, whether it
    ran out of time, its report as it printed it or None)."""
    reported, reasons, notes, infrastructure, timed_out, screen = {}, {}, [], None, False, None
    with open(log, "a") as f:
        f.write(f"\n==== {chapter} {mode} ====\n")
    left = deadline - time.monotonic()
    room = os.path.join(prepared.work, f"judge-{chapter}-{mode}")
    shown = os.path.join(room, "subject")  # what the sandbox shows: the subject alone
    os.makedirs(shown)
    os.chmod(room, 0o700)
    subject = os.path.join(shown, os.path.basename(prepared.subjects[chapter]))
    shutil.copyfile(prepared.subjects[chapter], subject)
    os.chmod(subject, 0o755)
    box = workbook.box
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "WORKBOOK_MEASUREMENTS_DIR": room, "WORKBOOK_FEEDBACK": "full",
           "WORKBOOK_VARIANT": str(prepared.variant["variant"]), "WORKBOOK_SUBJECT": subject,
           "WORKBOOK_HIDDEN_SEED": str(hidden_seed)}
    if mode == "gpu":
        # Data the submission's build wrote: a link there is refused, never followed.
        built = os.path.join(prepared.dirs["build-upper"], kernels_name(chapter))
        if os.path.islink(built) or not os.path.isfile(built):
            reasons[mode] = "not run: the build left no kernels file (see build.log)"
            return reported, reasons, notes, infrastructure, timed_out, screen
        env["WORKBOOK_KERNELS"] = os.path.join(room, kernels_name(chapter))
        shutil.copyfile(built, env["WORKBOOK_KERNELS"], follow_symlinks=False)
        env["WORKBOOK_GPU_TIMEOUT"] = str(max(1, int(left)))
        if gpu_lock:
            env["WORKBOOK_GPU_LOCK"] = gpu_lock
    record_path = os.path.join(room, "record")
    start = time.monotonic()
    with box.judging(), open(log, "ab") as out:
        env["WORKBOOK_SUBJECT_WRAPPER"] = box.subject_wrapper(shown, max(1, left), GRADER_MEMORY,
                                                              256 << 20, gpu=mode == "gpu")
        # Named by its name alone, which is what its report shows: not where the tool keeps it.
        judge = subprocess.Popen([grader_name(chapter), mode, "--record", record_path],
                                 executable=os.path.join(workbook.build, grader_name(chapter)),
                                 cwd=room, env=env,
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                 start_new_session=True)
        try:
            judge.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            try:
                os.killpg(judge.pid, signal.SIGKILL)
            except OSError:
                pass
            judge.wait()
    with open(log, "a") as f:
        f.write(f"\n==== {chapter} {mode}: {time.monotonic() - start:.1f} s ====\n")
    try:
        with open(record_path, "rb") as f:
            ran = record.parse(f.read(record.RECORD_BYTES + 1))
        reported = ran.results()
        screen = workbook.render(ran.text) if ran.header is not None else None
    except (OSError, record.RecordRefused) as e:
        ran = None
        if not timed_out:
            infrastructure = f"{chapter}: the judge left no record it could read ({e})"
    try:  # the subject's wrapper failed: whatever the judge made of it, the machine's fault
        with open(os.path.join(room, sandbox.WRAPPER_FAULT), errors="replace") as f:
            infrastructure = f"{chapter}: the sandbox of the student's code failed: {f.read()}"
    except OSError:
        pass
    if timed_out and infrastructure is None:
        reasons[mode] = (f"the time limit of {options.time_limit} s ran out while the {mode} "
                         f"checks ran; the judge was stopped")
    elif mode == "gpu" and judge.returncode == GPU_UNUSABLE and infrastructure is None:
        # The judge runs none of the student's code: its status is its own.
        infrastructure = f"{chapter}: the GPU checks could not use the GPU (see run.log)"
    elif infrastructure is None and (ran is None or ran.end != "finished"):
        infrastructure = (f"{chapter}: the judge ended before its last check (status "
                          f"{judge.returncode}; see run.log)")
    if infrastructure:
        reasons[mode] = "not graded: " + infrastructure
    return reported, reasons, notes, infrastructure, timed_out, screen


def run_checks(workbook, prepared, options, modes, checked=None):
    """Runs the judges of a prepared submission in `modes`, after what `checked` (a Checked)
    holds, and scores them. The host checks of the chapters run side by side (they only use the
    CPU); the GPU judges GPU_GRADERS_AT_ONCE at a time, their checks one chapter at a time (the
    lock), the GPU to themselves.
    The time limit bounds all the checks of the submission, those in `checked` included."""
    checked = checked or Checked()
    if checked.hidden_seed is None:  # drawn for this grading, unless it reproduces one
        checked.hidden_seed = options.hidden_seed if options.hidden_seed is not None else \
            int.from_bytes(os.urandom(8), "little")
    start = time.monotonic()
    deadline = start + options.time_limit - checked.seconds
    log = os.path.join(prepared.work, "run.log")
    if checked.infrastructure is None:
        checked.infrastructure = prepared.infrastructure
    for mode in modes:
        def blocked(chapter):
            """Why a chapter's grader is not run at all, or None."""
            if chapter in prepared.refused:
                return prepared.refused[chapter]
            if chapter in prepared.failed_build:
                return prepared.failed_build[chapter]
            if mode == "gpu" and chapter in prepared.untouched:
                # The GPU is the class's bottleneck, and a skeleton scores no GPU points
                # (tools/maintainer/check_skeleton_points.py holds every chapter to that).
                return (f"not run: {prepared.untouched[chapter]}, and a skeleton scores no GPU "
                        f"points (its host checks say what is missing)")
            if checked.infrastructure:
                return "not graded: " + checked.infrastructure
            if checked.timed_out or time.monotonic() >= deadline:
                return f"not run: the time limit of {options.time_limit} s ran out"
            return None

        gpu_lock = None
        if mode == "gpu":
            # A few judges at once, their checks one at a time (the lock): the next judges start
            # (process, subject, CUDA context) while one checks. A fault or a timeout stops the
            # judges not yet started.
            gpu_lock = os.path.join(prepared.work, "gpu.lock")
            with open(gpu_lock, "w"):
                pass
            os.chmod(gpu_lock, 0o644)

        def one(chapter, chapter_log):
            reason = blocked(chapter)
            if reason:
                return {}, {mode: reason}, [], None, False, None
            outcome = run_judge(workbook, prepared, options, chapter, deadline, chapter_log,
                                checked.hidden_seed, mode, gpu_lock)
            if mode == "gpu":  # a GPU fault or a timeout: the judges not yet started do not run
                checked.infrastructure = checked.infrastructure or outcome[3]
                checked.timed_out = checked.timed_out or outcome[4]
            return outcome

        # Host checks side by side (they only use the CPU), GPU judges a few at a time; each
        # into a log of its own, kept in chapter order.
        logs = [os.path.join(prepared.work, f"run-{c}-{mode}.log") for c in workbook.chapters]
        workers = (os.cpu_count() or 1) if mode == "host" else GPU_GRADERS_AT_ONCE
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(one, workbook.chapters, logs))
        with open(log, "ab") as whole:
            for part in logs:
                if os.path.exists(part):
                    with open(part, "rb") as f:
                        shutil.copyfileobj(f, whole)
                    os.remove(part)
        for chapter, (reported, reasons, notes, infrastructure, timed_out, screen) in \
                zip(workbook.chapters, outcomes):
            checked.notes += notes
            if screen is not None:
                checked.screens.append({"chapter": chapter, "mode": mode, "text": screen})
            checked.infrastructure = checked.infrastructure or infrastructure
            checked.timed_out = checked.timed_out or timed_out
            checked.tests += scoring.score_chapter(chapter, workbook.points[chapter], [mode],
                                                   {mode: reported}, reasons)
    checked.seconds += time.monotonic() - start
    return checked


def result_of(workbook, prepared, options, checked):
    """The submission's result (result.json) from what its checks gave."""
    notes = list(prepared.notes) + checked.notes
    tests = sorted(checked.tests, key=lambda t: (t["chapter"], t["mode"] != "host"))
    hidden = [t for t in tests if t["hidden"]]
    if hidden:
        notes.append(f"{len(hidden)} of the checks {'was' if len(hidden) == 1 else 'were'} "
                     f"hidden: official grading runs {'it' if len(hidden) == 1 else 'them'} on "
                     f"cases the hand-out does not "
                     f"({scoring.number(sum(t['score'] for t in hidden))} of "
                     f"{scoring.number(sum(t['max_score'] for t in hidden))} points).")
    unreported = sum(t["status"] == "not reported" and t["chapter"] not in prepared.refused
                     and t["chapter"] not in prepared.failed_build
                     and not (t["mode"] == "gpu" and t["chapter"] in prepared.untouched)
                     for t in tests)
    infrastructure = checked.infrastructure
    if checked.timed_out:
        notes.append(f"The time limit of {options.time_limit} s ran out; the checks that had "
                     f"not reported score zero.")
    elif unreported and not infrastructure:
        notes.append(f"{unreported} check(s) did not report and score zero (see the report).")
    if prepared.failed_build:
        notes.append(f"Not built, so not checked: {', '.join(sorted(prepared.failed_build))} "
                     f"(the first check of each says why).")
    if infrastructure:
        notes.append("Not graded, to be retried: " + infrastructure + ".")
    return {
        "submission": prepared.ident, "mode": "+".join(options.modes()),
        "variant": prepared.variant["variant"], "student": prepared.variant["student"],
        "name": prepared.variant.get("name", ""), "variant_source": prepared.variant["source"],
        "workbook": workbook.commit, "options": options.describe(),
        "visibility": options.visibility, "hidden_visibility": options.hidden_visibility,
        "fingerprint": prepared.fingerprint,
        "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
        "seconds": prepared.build_seconds + checked.seconds,
        "build_seconds": round(prepared.build_seconds, 1),
        "run_seconds": round(checked.seconds, 1),
        "notes": notes, "ignored": prepared.ignored, "tests": tests,
        "screens": sorted(checked.screens, key=lambda r: (r["chapter"], r["mode"] != "host")),
        "complete": infrastructure is None, "error": infrastructure,
        "hidden_seed": checked.hidden_seed,  # grade --hidden-seed grades with it again
    }


def run(workbook, prepared, options, checked=None):
    """Runs every check of a prepared submission (those of the modes after the host checks, when
    `checked` holds the host checks' outcome already) and returns its result."""
    modes = options.modes() if checked is None else [m for m in options.modes() if m != "host"]
    checked = run_checks(workbook, prepared, options, modes, checked)
    keep_logs(prepared)
    return result_of(workbook, prepared, options, checked)


def keep_logs(prepared):
    """The build's and the checks' logs, kept beside the results (the work folder goes)."""
    for name in ("build.log", "run.log"):
        if os.path.isfile(os.path.join(prepared.work, name)):
            shutil.copyfile(os.path.join(prepared.work, name),
                            os.path.join(prepared.directory, name))


def write_result(workbook, directory, result, key=None):
    """Writes a result's outputs (with `key`, what a class run compares to reuse it). A
    submission that could not be graded for a fault of the machine gets only its result.json,
    marked to retry."""
    if key is not None:
        result["key"] = key
    if result["complete"]:
        scoring.write_outputs(directory, result, workbook.chapters)
    else:
        scoring.write_atomically(os.path.join(directory, "result.json"),
                                 json.dumps(result, indent=2) + "\n")
    return result


def finish(workbook, prepared, options, key=None, keep_work=False, checked=None):
    """Runs a prepared submission's checks (after the host checks, when `checked` holds them),
    writes its outputs and removes its work folder unless asked to keep it."""
    result = write_result(workbook, prepared.directory,
                          run(workbook, prepared, options, checked), key)
    if not keep_work:
        shutil.rmtree(prepared.work, ignore_errors=True)
    return result


def grade_one(workbook, path, directory, options, key=None, keep_work=False, ident=None):
    os.makedirs(directory, exist_ok=True)
    return finish(workbook, prepare(workbook, path, directory, options, ident), options, key,
                  keep_work)
