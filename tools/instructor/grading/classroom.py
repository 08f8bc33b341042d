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
    return f"{workbook.commit} {options.describe()} {submission.fingerprint(exercises, ignored)}"


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
        directory = os.path.join(out, submission.submission_id(path))
        try:
            with open(os.path.join(directory, "result.json")) as f:
                result = json.load(f)
        except (OSError, ValueError):
            continue
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
    paths = submissions_in(folder)
    todo = []
    for path in paths:
        directory = os.path.join(out, submission.submission_id(path))
        key = key_of(workbook, path, options)
        if finished(directory, key) is None:
            todo.append((path, directory, key))
    total, done = len(paths), len(paths) - len(todo)
    start = time.monotonic()
    print(f"grade: {total} submissions in {folder}; {done} already graded, {len(todo)} to grade",
          file=sys.stderr)
    write_class(out, workbook, paths)
    graded_now = 0

    def prepare(item):
        path, directory, _ = item
        os.makedirs(directory, exist_ok=True)
        return runner.prepare(workbook, path, directory, options)

    # Builds run ahead of the checks, but at most `build_jobs` + 1 submissions ahead: a large
    # class does not fill the disk with build directories waiting for the GPU.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, build_jobs)) as pool:
        pending = collections.deque()
        upcoming = iter(todo)

        def fill():
            while len(pending) < max(1, build_jobs) + 1:
                item = next(upcoming, None)
                if item is None:
                    return
                pending.append((item, pool.submit(prepare, item)))

        fill()
        while pending:
            (_, _, key), future = pending.popleft()
            fill()
            result = runner.finish(workbook, future.result(), options, key, keep_work)
            write_class(out, workbook, paths)
            done += 1
            graded_now += 1
            elapsed = time.monotonic() - start
            left = elapsed / graded_now * (total - done)
            print(f"[{done}/{total}] {result['submission']}: "
                  f"{scoring.number(result['score'])}/{scoring.number(result['max_score'])}; "
                  f"elapsed {duration(elapsed)}, about {duration(left)} left", file=sys.stderr,
                  flush=True)
    rows = write_class(out, workbook, paths)
    print(f"grade: class.csv holds {rows} of {total} submissions: "
          f"{os.path.join(out, 'class.csv')} ({len(todo)} graded in "
          f"{duration(time.monotonic() - start)})", file=sys.stderr)
    return rows == total


def grade_task(workbook, folder, out, options, index):
    """One task of a Slurm array: submission number `index` of the folder (sorted by name)."""
    paths = submissions_in(folder)
    if not 0 <= index < len(paths):
        sys.exit(f"grade: task {index}, but the folder holds {len(paths)} submissions")
    path = paths[index]
    directory = os.path.join(out, submission.submission_id(path))
    key = key_of(workbook, path, options)
    if finished(directory, key) is not None:
        print(f"grade: {path} is already graded", file=sys.stderr)
        return True
    runner.grade_one(workbook, path, directory, options, key)
    return True


def slurm_script(tool, folder, out, options, count, partition=None, extra=()):
    """An sbatch script grading the class as a job array, one task per submission."""
    common = ["--out", out, "--time-limit", str(options.time_limit),
              "--gpu-targets", options.gpu_targets]
    if options.chapters:
        common += ["--chapters", ",".join(options.chapters)]
    if options.gpu:
        common += ["--gpu"]
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
    if not paths:
        sys.exit(f"grade: no submissions in {folder}")
    os.makedirs(os.path.join(out, "slurm"), exist_ok=True)
    script = os.path.join(out, "slurm", "grade-array.sbatch")
    scoring.write_atomically(script, slurm_script(tool, folder, out, options, len(paths),
                                                  partition, extra))
    submitted = subprocess.run(["sbatch", "--parsable", script], capture_output=True, text=True)
    if submitted.returncode != 0:
        sys.exit("grade: sbatch refused the job array: " + submitted.stderr.strip())
    job = submitted.stdout.strip().split(";")[0]
    gather = [sys.executable, tool, "--class", folder, "--out", out, "--gather",
              "--time-limit", str(options.time_limit), "--gpu-targets", options.gpu_targets]
    if options.chapters:
        gather += ["--chapters", ",".join(options.chapters)]
    if options.gpu:
        gather += ["--gpu"]
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
