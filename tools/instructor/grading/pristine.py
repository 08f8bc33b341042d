"""The pristine workbook every submission is graded in: the hand-out of the committed HEAD, plus
each chapter's hidden checks, built once in the sandbox at fixed paths, and what a submission's
build is compared with; its render_record gives a grader's record as the grader's report.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time

from . import sandbox, scoring

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# Official grading adds each chapter's hidden checks to the pristine workbook: other cases of the
# same functions and kernels, which a hand-out never runs: every file solutions/NN_slug/hidden_*
# (hidden_checks.cpp, and any header of theirs), and the hidden checks' part of
# solutions/NN_slug/chapter.ini (their points). Their source is never in a submission's view: the
# build there sees a stand-in of the same age.
HIDDEN_PREFIX = "hidden_"
INSTRUCTORS_MANIFEST = "chapter.ini"
SRC, BUILD, TOOL = "/grading/src", "/grading/build", "/grading/tool"
# The build's tool that renders a grader's record as the grader's report (report.md's).
RENDER_RECORD = "grader/harness/render_record"
# The bank model's command-line analyser: the keys of the vivas and exam sheets (orals.py).
ANALYZER = "tools/analyze_smem_access"


def tool_files():
    """What of the grading tool a sandbox runs (inspect_build.py), as {path there: its text}:
    written into the sandbox, never a folder of the machine's shown to it."""
    with open(os.path.join(HERE, "inspect_build.py")) as f:
        return {f"{TOOL}/inspect_build.py": f.read()}


def show_pristine_at(folder):
    """Shows the pristine workbook to the sandbox at FOLDER/src, FOLDER/build and FOLDER/tool
    instead of /grading/...: a Gradescope autograder grades where its fallback sandbox, which
    has no mount namespace, lays them out as real folders (gradescope.py)."""
    global SRC, BUILD, TOOL
    SRC, BUILD, TOOL = (os.path.join(folder, name) for name in ("src", "build", "tool"))


BUILD_MEMORY = 8 << 30


class GradingError(Exception):
    """The grading could not be done (a fault of the machine, not of the submission)."""


def committed_file(source_root, path):
    """The bytes of `path` at the committed HEAD of `source_root`, or None where it has none."""
    shown = subprocess.run(["git", "-C", source_root, "show", f"HEAD:{path}"],
                           capture_output=True)
    return shown.stdout if shown.returncode == 0 else None


def committed_names(source_root, folder):
    """The names of the files in `folder` at the committed HEAD of `source_root`."""
    listed = subprocess.run(["git", "-C", source_root, "ls-tree", "--name-only", f"HEAD:{folder}"],
                            capture_output=True, text=True)
    return listed.stdout.split() if listed.returncode == 0 else []


def chown_tree(path, box):
    """Makes `path` the sandbox user's (it writes there) when the tool runs as root."""
    if box.as_root:
        sandbox.own(path, sandbox.NOBODY)


def grader_name(chapter):
    return f"ch{chapter[:2]}_{chapter[3:]}_grader"


def subject_name(chapter):
    return f"ch{chapter[:2]}_{chapter[3:]}_subject"


def kernels_name(chapter):
    """The exercise's kernels compiled for the device alone, which the judge loads for the GPU
    checks (common/cuda/kernel_module.hpp): what a submission builds for them."""
    return f"ch{chapter[:2]}_{chapter[3:]}_kernels.fatbin"


def exercise_path(chapter):
    return f"chapters/{chapter}/{chapter[3:]}_exercise.cu"


class Workbook:
    """The pristine workbook every submission is graded in: made once from the workbook's
    committed HEAD, as the hand-out (tools/instructor/make_handout.py), without solutions, plus
    each chapter's hidden checks, and built once (per commit, GPU targets and chapters) in the
    sandbox. Nothing a submission holds can reach its graders, thresholds, harness or build
    files: a submission's build only lays its exercise files over it."""

    def __init__(self, cache, box, options, source_root=SOURCE_ROOT, commit=None):
        """With `commit`, the pristine workbook of that commit is already under `cache` (a
        Gradescope autograder holds no checkout); without it, it is made from `source_root`'s
        committed HEAD where `cache` does not hold it yet."""
        if commit is None:
            found = subprocess.run(["git", "-C", source_root, "rev-parse", "HEAD"],
                                   capture_output=True, text=True)
            if found.returncode != 0:
                sys.exit(f"grade: {source_root} is not a git checkout with a commit; the "
                         f"pristine workbook is made from the committed HEAD")
            commit = found.stdout.strip()
        self.commit = commit
        self.box = box
        self.root = os.path.join(os.path.abspath(cache), "workbook-" + self.commit[:12])
        if not os.path.isdir(os.path.join(self.root, "workbook")):
            if source_root is None:
                raise GradingError(f"the pristine workbook of {commit[:12]} is not in {cache}")
            self._extract(cache, source_root)
        self.tree = os.path.join(self.root, "workbook")
        available = sorted(d for d in os.listdir(os.path.join(self.tree, "chapters"))
                           if os.path.isfile(os.path.join(self.tree, "grader", d, "chapter.ini")))
        chapters = options.chapters
        if chapters:
            unknown = [c for c in chapters if c not in available]
            if unknown:
                sys.exit(f"grade: no chapter {', '.join(unknown)}; the chapters are "
                         f"{', '.join(available)}")
            available = [c for c in available if c in chapters]
        self.chapters = available
        self.points = {c: scoring.load_points(self.tree, c) for c in self.chapters}
        self.hidden_sources = sorted(
            os.path.join("solutions", c, name) for c in self.chapters
            if os.path.isdir(os.path.join(self.tree, "solutions", c))
            for name in os.listdir(os.path.join(self.tree, "solutions", c))
            if name.startswith(HIDDEN_PREFIX))
        key = hashlib.sha256(f"{options.gpu_targets} {options.gpu} "
                             f"{','.join(self.chapters)}"
                             .encode())
        self.build_root = os.path.join(os.path.abspath(cache),
                                       f"build-{self.commit[:12]}-{key.hexdigest()[:10]}")
        self.build = os.path.join(self.build_root, "build")
        self.info = None
        self.options = options
        self.gpu_check_lock = threading.Lock()

    def _extract(self, cache, source_root):
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
            for name in committed_names(source_root, f"solutions/{chapter}"):
                if not name.startswith(HIDDEN_PREFIX) and name != INSTRUCTORS_MANIFEST:
                    continue
                data = committed_file(source_root, f"solutions/{chapter}/{name}")
                if data is not None and name == INSTRUCTORS_MANIFEST:
                    data = scoring.manifest.hidden_part(data.decode()).encode()
                if data is not None:
                    os.makedirs(os.path.join(tree, "solutions", chapter), exist_ok=True)
                    with open(os.path.join(tree, "solutions", chapter, name), "wb") as f:
                        f.write(data)
        try:
            os.rename(temporary, self.root)
        except OSError:  # another task made it first
            shutil.rmtree(temporary, ignore_errors=True)

    def ensure_built(self, progress=None, build=True):
        """Builds the pristine workbook once, sandboxed, and records how its subjects were
        made (subjects_made). With build=False (a GPU node, which builds nothing) it must be
        built already."""
        info_path = os.path.join(self.build_root, "info.json")
        if self.info is None and os.path.isfile(info_path):
            with open(info_path) as f:
                self.info = json.load(f)
        if self.info is not None:
            return
        if not build:
            raise GradingError(f"the pristine workbook is not built in {self.build_root} (its "
                               f"build job has not run, or another --out is shared)")
        lock = scoring.Lock(self.build_root + ".lock")
        with lock:
            if os.path.isfile(info_path):
                with open(info_path) as f:
                    self.info = json.load(f)
                return
            if progress:
                progress(f"building the pristine workbook once ({len(self.chapters)} chapters, "
                         f"GPU targets {self.options.gpu_targets}); submissions then rebuild "
                         f"only their own units")
            shutil.rmtree(self.build_root, ignore_errors=True)
            os.makedirs(self.build)
            chown_tree(self.build_root, self.box)
            log = os.path.join(self.build_root, "build.log")
            # The judges (the checks, none of the student's code), the skeletons' subjects,
            # and with --gpu the GPU graders, which submissions rebuild with their exercises.
            targets = [grader_name(c) for c in self.chapters] + \
                [subject_name(c) for c in self.chapters] + \
                ([kernels_name(c) for c in self.chapters]
                 if self.options.gpu else [])
            script = (f"meson setup {BUILD} {SRC} -Dkernels=student "
                      f"-Dgpu_targets={self.options.gpu_targets} -Ddocs=disabled "
                      f"-Dchapters={','.join(self.chapters)} && "
                      f"ninja -C {BUILD} ${{WORKBOOK_BUILD_JOBS:+-j $WORKBOOK_BUILD_JOBS}} "
                      f"{' '.join(targets)} {RENDER_RECORD} {ANALYZER}")
            with build_watch(log, progress, "the pristine workbook"):
                outcome = self.box.run(["sh", "-c", script], BUILD, log,
                                       self.options.build_time_limit,
                                       binds=[(self.tree, SRC, False), (self.build, BUILD, True)],
                                       memory_bytes=BUILD_MEMORY)
            info = self.subjects_made() if outcome.exit == 0 else None
            if not info:
                with open(log, errors="replace") as f:
                    tail = f.read()[-3000:]
                raise GradingError(f"the pristine workbook did not build ({outcome.describe()}); "
                                   f"see {log}:\n{tail}")
            scoring.write_atomically(info_path, json.dumps(info) + "\n")
            self.info = info

    def subjects_made(self):
        """How the pristine build made each chapter's subject, which a submission's build does
        again with its exercise (prepare.build_subjects): {"subjects": {chapter: {"target",
        "objects", "main", "unit", "compile", "link"}}}, or None where it holds none."""
        made = {}
        with open(os.path.join(self.build, "compile_commands.json")) as f:
            compiled = json.load(f)
        for chapter in self.chapters:
            target, suite = subject_name(chapter), f"ch{chapter[:2]}"
            listed = subprocess.run(["ninja", "-C", self.build, "-t", "commands", target],
                                    capture_output=True, text=True)
            unit = f"{suite}_subject_unit.cu"
            compile_line = [e["command"] for e in compiled if e["file"].endswith(unit)]
            if listed.returncode != 0 or not compile_line or \
                    not os.path.isfile(os.path.join(self.build, target)):
                return None
            made[chapter] = {"target": target, "objects": f"{target}.p", "unit": unit,
                             "main": f"{suite}_subject_main.cu", "compile": compile_line[0],
                             "link": listed.stdout.strip().splitlines()[-1]}
        return {"subjects": made}

    def render(self, text):
        """A grader's report as it printed it, from its record (`text`, read by record.py): the
        pristine build's render_record, which runs no submission's code, tells it."""
        shown = subprocess.run([os.path.join(self.build, RENDER_RECORD)], input=text,
                               capture_output=True, timeout=120)
        return shown.stdout.decode("utf-8", "replace") if shown.returncode == 0 else \
            "(the report cannot be shown: " + shown.stderr.decode("utf-8", "replace")[:300] + ")"

    def skeleton(self, chapter):
        """The bytes of the hand-out's exercise file of `chapter` (its skeleton)."""
        with open(os.path.join(self.tree, exercise_path(chapter)), "rb") as f:
            return f.read()

    def check_gpu(self):
        """Why the GPU checks cannot run here, or None: the pristine grader of the first
        chapter is asked (its `device` mode, which runs no submission's code), in the sandbox,
        as the graders will run. One ask at a time: GPU graders that exit as if the GPU were
        unusable ask it too (checks.gpu_unusable)."""
        self.ensure_built()
        with self.gpu_check_lock:
            log = os.path.join(self.build_root, "gpu-check.log")
            if os.path.exists(log):
                os.remove(log)
            outcome = self.box.run([os.path.join(BUILD, grader_name(self.chapters[0])),
                                    "device"], "/tmp", log, 120,
                                   binds=[(self.build, BUILD, False), (self.tree, SRC, False)],
                                   gpu=True)
            with open(log, errors="replace") as f:
                said = f.read().strip()
        if outcome.exit == 0:
            return None
        return said or outcome.describe()


class Ticker:
    """Runs `tick` every `every` seconds, in a thread of its own, while the block runs (nothing
    where `tick` is None)."""

    def __init__(self, tick, every):
        self.tick, self.every = tick, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop.wait(self.every):
            self.tick()

    def __enter__(self):
        if self.tick:
            self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


STEP = re.compile(rb"\[(\d+)/(\d+)\]")


def build_watch(log, progress, what, every=15.0):
    """While a build runs, says every `every` seconds how far it has got (ninja's last [n/m] in
    its log), so that a long build is never silent."""
    start = time.monotonic()

    def tick():
        try:
            with open(log, "rb") as f:
                f.seek(max(0, os.path.getsize(log) - 8192))
                steps = STEP.findall(f.read())
        except OSError:
            steps = []
        where = f"step {int(steps[-1][0])} of {int(steps[-1][1])}" if steps else "configuring"
        progress(f"{what}: {where}, {time.monotonic() - start:.0f} s so far")
    return Ticker(tick if progress else None, every)
