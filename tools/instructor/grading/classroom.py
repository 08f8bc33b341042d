"""A whole class: every submission of a folder, one after another on one GPU (while the next ones
build on the CPU), or as a Slurm job array; resumable, into one class CSV."""
import collections
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import time

from . import runner, scoring, submission


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
    variant = runner.decide_variant(submission.submission_id(path), files, options)
    return (f"{workbook.commit} {options.describe()} variant={variant['variant']} "
            f"refused={bool(variant['refused'])} {submission.fingerprint(exercises, ignored)}")


def check_roster(paths, options):
    """With a roster, refuses before grading anything a class holding a submission that is on
    no row of it (named, with the roster)."""
    if options.roster is None:
        return
    strangers = [submission.submission_id(p) for p in paths
                 if submission.submission_id(p) not in options.roster.variants]
    if strangers:
        shown = ", ".join(strangers[:10]) + (f" and {len(strangers) - 10} more"
                                             if len(strangers) > 10 else "")
        sys.exit(f"grade: {len(strangers)} submission(s) are not on the roster "
                 f"{options.roster.path}: {shown}. A submission is named after its student id "
                 f"(alice.tar.gz, alice/); nothing was graded")


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


def write_class(out, workbook, paths):
    """class.csv from every finished result (unfinished submissions are left out), and returns
    how many rows it holds."""
    rows = [scoring.csv_header(workbook.chapters)]
    for path in paths:
        directory = results_folder(out, path)
        try:
            with open(os.path.join(directory, "result.json")) as f:
                result = json.load(f)
        except (OSError, ValueError):
            continue
        if not result.get("complete"):
            continue  # not graded: an error to retry
        rows.append(scoring.csv_row(result, workbook.chapters))
    scoring.write_csv(os.path.join(out, "class.csv"), rows)
    return len(rows) - 1


def duration(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 \
        else f"{seconds // 60}m{seconds % 60:02d}s"


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
    todo = []
    for path in paths:
        directory = results_folder(out, path)
        key = key_of(workbook, path, options)
        if finished(directory, key) is None:
            todo.append((path, directory, key))
    total, done = len(paths), len(paths) - len(todo)
    start = time.monotonic()  # the estimates count from here, the pristine build done
    say(f"grade: {done} already graded, {len(todo)} to grade "
        f"(the pristine workbook is ready)")
    write_class(out, workbook, paths)
    graded_now, errors = 0, []

    def prepare(item):
        path, directory, _ = item
        os.makedirs(directory, exist_ok=True)
        return runner.prepare(workbook, path, directory, options)

    # Builds run ahead of the checks, but at most `build_jobs` + 1 submissions ahead: a large
    # class does not fill the disk with build directories waiting for the GPU.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, build_jobs)) as pool:
        pending = collections.deque()
        upcoming = iter(enumerate(todo, done + 1))

        def fill():
            while len(pending) < max(1, build_jobs) + 1:
                number, item = next(upcoming, (None, None))
                if item is None:
                    return
                say(f"[{number}/{total}] {submission.submission_id(item[0])}: building")
                pending.append((item, pool.submit(prepare, item)))

        fill()
        while pending:
            (path, _, key), future = pending.popleft()
            fill()
            prepared = future.result()
            say(f"[{done + 1}/{total}] {prepared.ident}: built in "
                f"{prepared.build_seconds:.0f} s; checks running")
            result = runner.finish(workbook, prepared, options, key, keep_work)
            write_class(out, workbook, paths)
            done += 1
            graded_now += 1
            elapsed = time.monotonic() - start
            left = elapsed / graded_now * (total - done)
            if result["complete"]:
                outcome = (f"{scoring.number(result['score'])}/"
                           f"{scoring.number(result['max_score'])}")
            else:
                outcome = f"NOT GRADED, to retry: {result['error']}"
                errors.append((result["submission"], result["error"]))
            say(f"[{done}/{total}] {result['submission']}: {outcome}; "
                f"elapsed {duration(elapsed)}, about {duration(left)} left")
    rows = write_class(out, workbook, paths)
    say(f"grade: class.csv holds {rows} of {total} submissions: "
        f"{os.path.join(out, 'class.csv')} ({len(todo)} graded in "
        f"{duration(time.monotonic() - start)})")
    for ident, error in errors:
        say(f"grade: {ident} could not be graded ({error}); run the same command again to "
            f"retry it")
    return rows == total


def say(text):
    print(text, file=sys.stderr, flush=True)


def grade_task(workbook, folder, out, options, index):
    """One task of a Slurm array: submission number `index` of the folder (sorted by name)."""
    paths = submissions_in(folder)
    check_roster(paths, options)
    if not 0 <= index < len(paths):
        sys.exit(f"grade: task {index}, but the folder holds {len(paths)} submissions")
    path = paths[index]
    directory = results_folder(out, path)
    key = key_of(workbook, path, options)
    if finished(directory, key) is not None:
        print(f"grade: {path} is already graded", file=sys.stderr)
        return True
    workbook.ensure_built(progress=say)
    check_gpu(workbook, options)
    os.makedirs(directory, exist_ok=True)
    try:
        with scoring.Lock(os.path.join(directory, ".lock"), wait=False):
            result = runner.grade_one(workbook, path, directory, options, key)
    except scoring.Busy as e:
        say(f"grade: {path} is being graded by another task ({e})")
        return False
    if not result["complete"]:
        say(f"grade: {path} could not be graded ({result['error']}); run the task again")
    return result["complete"]


def slurm_script(tool, folder, out, options, count, partition=None, extra=()):
    """An sbatch script grading the class as a job array, one task per submission."""
    common = ["--out", out, "--time-limit", str(options.time_limit),
              "--gpu-targets", options.gpu_targets, "--visibility", options.visibility]
    if options.chapters:
        common += ["--chapters", ",".join(options.chapters)]
    if options.gpu:
        common += ["--gpu"]
    common += options.variant_arguments()
    minutes = (options.time_limit + options.build_time_limit) // 60 + 5
    lines = ["#!/bin/bash", "#SBATCH --job-name=workbook-grade", f"#SBATCH --array=0-{count - 1}",
             f"#SBATCH --output={os.path.join(out, 'slurm', 'task-%a.log')}",
             f"#SBATCH --time={minutes}", "#SBATCH --cpus-per-task=2"]
    if options.gpu:
        # One GPU per task, and the node to itself: speed is graded.
        lines += ["#SBATCH --gres=gpu:1", "#SBATCH --exclusive"]
    if partition:
        lines.append(f"#SBATCH --partition={partition}")
    lines += [f"#SBATCH {e}" for e in extra]
    lines += ["set -euo pipefail",
              " ".join(shlex.quote(x) for x in [sys.executable, tool, "--class", folder] + common
                       + ["--task"]) + ' "$SLURM_ARRAY_TASK_ID"']
    return "\n".join(lines) + "\n"


def grade_slurm(workbook, tool, folder, out, options, partition=None, wait=False, extra=()):
    """Submits the class as a Slurm job array and a gather job after it; with `wait`, waits for
    both and reports whether the class CSV holds every submission."""
    paths = submissions_in(folder)
    check_roster(paths, options)
    if not paths:
        sys.exit(f"grade: no submissions in {folder}")
    workbook.ensure_built(progress=say)  # once, here: the tasks find it on the shared disk
    os.makedirs(os.path.join(out, "slurm"), exist_ok=True)
    script = os.path.join(out, "slurm", "grade-array.sbatch")
    scoring.write_atomically(script, slurm_script(tool, folder, out, options, len(paths),
                                                  partition, extra))
    submitted = subprocess.run(["sbatch", "--parsable", script], capture_output=True, text=True)
    if submitted.returncode != 0:
        sys.exit("grade: sbatch refused the job array: " + submitted.stderr.strip())
    job = submitted.stdout.strip().split(";")[0]
    gather = [sys.executable, tool, "--class", folder, "--out", out, "--gather",
              "--time-limit", str(options.time_limit), "--gpu-targets", options.gpu_targets,
              "--visibility", options.visibility]
    if options.chapters:
        gather += ["--chapters", ",".join(options.chapters)]
    if options.gpu:
        gather += ["--gpu"]
    gather += options.variant_arguments()
    command = ["sbatch", "--parsable", f"--dependency=afterany:{job}", "--job-name=workbook-gather",
               f"--output={os.path.join(out, 'slurm', 'gather.log')}"]
    if partition:
        command.append(f"--partition={partition}")
    if wait:
        command.append("--wait")
    command += ["--wrap", " ".join(shlex.quote(x) for x in gather)]
    print(f"grade: job array {job} submitted ({len(paths)} tasks); the class CSV follows in "
          f"{os.path.join(out, 'class.csv')}", file=sys.stderr)
    gathered = subprocess.run(command, capture_output=True, text=True)
    if gathered.returncode != 0:
        sys.exit("grade: the gather job failed: " + gathered.stderr.strip())
    if not wait:
        return True
    rows = write_class(out, workbook, paths)
    return rows == len(paths)
