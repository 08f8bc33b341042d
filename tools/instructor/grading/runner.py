"""Grading one submission, every command of it in the sandbox (sandbox.py): the pristine
workbook (pristine.py) built once; a submission laid over it and built (prepare.py); its graders
run, their records read and scored (checks.py); and a class's two phases, the build with the
host checks and then the GPU checks, apart (Slurm's job arrays). What the sandbox could not do
for want of disk, memory or a usable GPU is an error to retry, never a grade.
"""
import json
import os
import shutil
import stat
import sys
import tarfile
import time

from . import sandbox, scoring
from .checks import Checked, keep_logs, result_of, run_checks, write_result
from .prepare import SCRATCH, Prepared, overlay_dirs, prepare
from .pristine import GradingError, chown_tree


class Options:
    """How submissions are graded. `roster` (a variants.Roster) gives each submission, by its
    id, its student and the variant it is graded on; `variant` grades every submission on one
    variant; `secret` (bytes) checks a submission's own VARIANT file where there is no roster.
    With none of them a submission without a VARIANT file is graded on variant 0 (self-study).
    `assignment` names the grade's column in the gradebook import; `hidden_seed` grades with the
    hidden checks' seed a result recorded, where each grading draws its own."""

    ASSIGNMENT = "Shared-memory workbook"

    def __init__(self, gpu=False, chapters=None, gpu_targets="host-only", time_limit=600,
                 build_time_limit=1800, visibility="visible", hidden_visibility="after_due_date",
                 roster=None, variant=None, secret=None, roster_path=None, secret_path=None,
                 assignment=ASSIGNMENT, workbook_cache=None, hidden_seed=None):
        vars(self).update((name, value) for name, value in locals().items() if name != "self")
        self.secret = roster.secret if roster is not None else secret

    def modes(self):
        return ["host", "gpu"] if self.gpu else ["host"]

    def arguments(self):
        """The command-line options that grade as this run does: a Slurm task's (the same
        variants and seed)."""
        arguments = ["--time-limit", str(self.time_limit), "--build-time-limit",
                     str(self.build_time_limit), "--gpu-targets", self.gpu_targets,
                     "--visibility", self.visibility, "--hidden-visibility", self.hidden_visibility]
        for option, value in (
                ("--chapters", ",".join(self.chapters) if self.chapters else None),
                ("--assignment", self.assignment if self.assignment != self.ASSIGNMENT else None),
                ("--workbook-cache", self.workbook_cache),
                ("--roster", self.roster_path and os.path.abspath(self.roster_path)),
                ("--secret-file", self.secret_path and os.path.abspath(self.secret_path)),
                ("--variant", self.variant), ("--hidden-seed", self.hidden_seed)):
            if value is not None:
                arguments += [option, str(value)]
        return arguments + (["--gpu"] if self.gpu else [])

    def describe(self):
        return (f"modes={','.join(self.modes())} chapters={','.join(self.chapters or [])} "
                f"gpu_targets={self.gpu_targets} time_limit={self.time_limit} "
                f"visibility={self.visibility},{self.hidden_visibility}")


def stop_everything(signum, _frame):
    """Signal handler (tools/instructor/grade installs it for SIGINT and SIGTERM): kills every
    sandbox this tool started (and with it every process in it), then exits. Finished results
    are already on disk."""
    sandbox.stop_everything()
    print(f"\ngrade: stopped by signal {signum}; finished results are kept, run the same "
          f"command again to go on", file=sys.stderr, flush=True)
    os._exit(128 + signum)


# A class graded in two phases (tools/instructor/grade --phase, which Slurm's job arrays run):
# the build phase, on a CPU, prepares a submission and runs its host checks, then leaves what
# the GPU phase needs in the submission's results folder (BUILT): the submission's own files
# of the build (its exercise files and the graders they rebuilt) and what the phase found. The
# GPU phase, on a GPU node, lays them over the pristine workbook again and runs only the GPU
# checks.
BUILT = "built"
PREPARED_FIELDS = ("ident", "path", "notes", "refused", "variant", "failed_build", "ignored",
                   "untouched", "infrastructure", "fingerprint", "build_seconds")


def build_phase(workbook, path, directory, options, key):
    """Prepares the submission at `path` and runs its host checks. Without the GPU checks the
    submission is then graded (its outputs written); with them, its build is left in
    directory/BUILT for check_phase. Returns the result, or None when the GPU phase follows."""
    os.makedirs(directory, exist_ok=True)
    prepared = prepare(workbook, path, directory, options)
    try:
        checked = run_checks(workbook, prepared, options, ["host"])
        keep_logs(prepared)
        if not options.gpu:
            return write_result(workbook, directory, result_of(workbook, prepared, options,
                                                               checked), key)
        pack(prepared, checked, key, os.path.join(directory, BUILT))
        return None
    finally:
        shutil.rmtree(prepared.work, ignore_errors=True)


def check_phase(workbook, directory, options, key):
    """Runs the GPU checks of a submission the build phase left in directory/BUILT and writes
    its outputs; returns its result, or None when there is no build of it with this `key`."""
    unpacked = unpack(workbook, os.path.join(directory, BUILT), directory, key)
    if unpacked is None:
        return None
    prepared, checked = unpacked
    try:
        checked = run_checks(workbook, prepared, options, ["gpu"], checked)
        run_log = os.path.join(directory, "run.log")  # the build phase's, then this phase's
        if os.path.isfile(run_log):
            with open(run_log, "ab") as whole, \
                    open(os.path.join(prepared.work, "run.log"), "rb") as part:
                shutil.copyfileobj(part, whole)
        result = write_result(workbook, directory,
                              result_of(workbook, prepared, options, checked), key)
        if result["complete"]:
            shutil.rmtree(os.path.join(directory, BUILT), ignore_errors=True)
        return result
    finally:
        shutil.rmtree(prepared.work, ignore_errors=True)


def pack(prepared, checked, key, folder):
    """Leaves a prepared submission's own files of the build (the upper layers of its
    overlays: regular files and folders only) and what its phase found in `folder`."""
    temporary = folder + ".partial"
    shutil.rmtree(temporary, ignore_errors=True)
    os.makedirs(temporary)
    with tarfile.open(os.path.join(temporary, "layers.tar.gz"), "w:gz", compresslevel=1) as t:
        for layer in ("src-upper", "build-upper"):
            t.add(prepared.dirs[layer], arcname=layer, recursive=False)
            for root, dirs, files in os.walk(prepared.dirs[layer]):
                for name in sorted(dirs) + sorted(files):
                    full = os.path.join(root, name)
                    mode = os.lstat(full).st_mode
                    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):  # no links, no whiteouts
                        t.add(full, arcname=os.path.join(layer, os.path.relpath(
                            full, prepared.dirs[layer])), recursive=False)
    state = {field: getattr(prepared, field) for field in PREPARED_FIELDS}
    state.update({"key": key, "checked": checked.to_json()})
    scoring.write_atomically(os.path.join(temporary, "state.json"), json.dumps(state) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    os.rename(temporary, folder)


def unpack(workbook, folder, directory, key):
    """The Prepared and Checked a build phase left in `folder` for the same `key`, its layers
    laid out in a fresh work folder; None when there is none."""
    try:
        with open(os.path.join(folder, "state.json")) as f:
            state = json.load(f)
    except (OSError, ValueError):
        return None
    if state.get("key") != key:
        return None
    work = os.path.join(SCRATCH[0], f"{state['ident']}-{os.getpid()}-{time.time_ns()}")
    dirs = overlay_dirs(work)
    for d in dirs.values():
        os.makedirs(d)
    with tarfile.open(os.path.join(folder, "layers.tar.gz")) as t:
        members = t.getmembers()
        for m in members:  # what pack wrote: files and folders inside the two layers
            parts = m.name.split("/")
            if not (m.isreg() or m.isdir()) or parts[0] not in ("src-upper", "build-upper") \
                    or ".." in parts or m.name.startswith("/"):
                raise GradingError(f"{folder}: the build phase's layers hold {m.name!r}, which "
                                   f"it never writes; grade the submission again")
        t.extractall(work, members=members)
    chown_tree(work, workbook.box)
    prepared = Prepared(work=work, dirs=dirs, directory=directory,
                        **{field: state[field] for field in PREPARED_FIELDS})
    return prepared, Checked.from_json(state["checked"])
