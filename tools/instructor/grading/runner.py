"""Grading one submission, every command of it in the sandbox (sandbox.py).

The pristine workbook (the hand-out of the committed HEAD, plus the hidden checks) is built once,
sandboxed, at fixed paths (/grading/src, /grading/build). A submission is graded in overlays of
that build: its exercise files are laid over the source, the compiler is asked which files they
read (and a file outside the allowed headers refuses the chapter), then only the units they reach
are rebuilt and the symbols they define are checked against the grader's own; each chapter's
grader then runs with its report sent through a pipe the tool reads, read strictly
(catch_xml.py). What the sandbox could not do for want of disk, memory or a usable GPU is an
error to retry, never a grade.
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import threading
import time

from . import catch_xml, sandbox, scoring, submission, variants

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# Official grading adds each chapter's hidden checks to the pristine workbook: other cases of the
# same functions and kernels, which a hand-out never runs: every file solutions/NN_slug/hidden_*
# (hidden_checks.cpp, and any header of theirs, such as chapter 09's hidden_tile.hpp), and the
# hidden checks' part of solutions/NN_slug/chapter.ini (their points). Their source is never in
# a submission's view: the build there sees a stand-in of the same age.
HIDDEN_PREFIX = "hidden_"
INSTRUCTORS_MANIFEST = "chapter.ini"
SRC, BUILD, TOOL = "/grading/src", "/grading/build", "/grading/tool"


def show_pristine_at(folder):
    """Shows the pristine workbook to the sandbox at FOLDER/src, FOLDER/build and FOLDER/tool
    instead of /grading/...: a Gradescope autograder grades where its fallback sandbox, which
    has no mount namespace, lays them out as real folders (gradescope.py)."""
    global SRC, BUILD, TOOL
    SRC, BUILD, TOOL = (os.path.join(folder, name) for name in ("src", "build", "tool"))


HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")
# A build that failed with one of these failed for want of something the machine lacked.
RESOURCE_ERRORS = re.compile(r"No space left on device|Cannot allocate memory|out of memory|"
                             r"virtual memory exhausted|std::bad_alloc|Killed signal terminated|"
                             r"Resource temporarily unavailable|Disk quota exceeded|"
                             r"File size limit exceeded|internal compiler error", re.I)
BUILD_MEMORY = 8 << 30
# Where submissions' work folders go (tools/instructor/grade --scratch): a local disk, since an
# overlay's changes cannot live on a network file system.
SCRATCH = [os.path.join("/tmp", f"workbook-grading-{os.getuid()}")]
GRADER_MEMORY = 16 << 30


class Options:
    """How submissions are graded. `roster` (a variants.Roster) gives each submission, by its
    id, its student and the variant it is graded on; `variant` grades every submission on one
    variant; `secret` (bytes) checks a submission's own VARIANT file where there is no roster.
    With none of them a submission without a VARIANT file is graded on variant 0 (self-study).
    `assignment` names the grade's column in the gradebook import."""

    ASSIGNMENT = "Shared-memory workbook"

    def __init__(self, gpu=False, chapters=None, gpu_targets="host-only", time_limit=600,
                 build_time_limit=1800, visibility="visible", roster=None, variant=None,
                 secret=None, roster_path=None, secret_path=None, assignment=ASSIGNMENT,
                 workbook_cache=None):
        self.assignment = assignment
        self.workbook_cache = workbook_cache  # --workbook-cache, passed on to Slurm's tasks
        self.roster = roster
        self.roster_path, self.secret_path = roster_path, secret_path
        self.variant = variant
        self.secret = roster.secret if roster is not None else secret
        self.gpu = gpu
        self.chapters = chapters
        self.gpu_targets = gpu_targets
        self.time_limit = time_limit
        self.build_time_limit = build_time_limit
        self.visibility = visibility

    def modes(self):
        return ["host", "gpu"] if self.gpu else ["host"]

    def variant_arguments(self):
        """The command-line options that give a Slurm task the same variants."""
        arguments = []
        if self.roster_path:
            arguments += ["--roster", os.path.abspath(self.roster_path)]
        if self.secret_path:
            arguments += ["--secret-file", os.path.abspath(self.secret_path)]
        if self.variant is not None:
            arguments += ["--variant", str(self.variant)]
        return arguments

    def describe(self):
        return (f"modes={','.join(self.modes())} chapters={','.join(self.chapters or [])} "
                f"gpu_targets={self.gpu_targets} time_limit={self.time_limit} "
                f"visibility={self.visibility}")


class GradingError(Exception):
    """The grading could not be done (a fault of the machine, not of the submission)."""


def variant_file_of(files):
    """The bytes of the submission's VARIANT file (a hand-out's, at its root), or None."""
    found = sorted((n for n in files if n == "VARIANT" or n.endswith("/VARIANT")),
                   key=lambda n: (n.count("/"), n))
    return files[found[0]] if found else None


def decide_variant(ident, files, options):
    """The variant submission `ident` (its files `files`) is graded on: a dict with variant,
    student, how it was decided (source) and, when the submission is refused for it, refused
    (why). The roster's entry (or --variant) decides, and a VARIANT file the submission carries
    must agree with it; without either, its VARIANT file is checked against the course secret."""
    claimed = damaged = None
    stamp = variant_file_of(files)
    if stamp is not None:
        try:
            claimed = variants.parse_variant_file(stamp)  # (student, variant)
        except variants.VariantError as e:
            damaged = f"its VARIANT file is damaged ({e})"

    def decided(variant, student, source, refused, name=""):
        return {"variant": variant, "student": student, "source": source, "refused": refused,
                "name": name}

    if options.roster is not None:
        entry = options.roster.entry_for(ident)
        if entry is None:
            return decided(0, None, "roster", f"{ident} is on no row of the roster")
        student = entry.student
        variant, source = options.roster.variant_of(student), "roster"
        given = f"the roster gives {student}"
        if options.roster.secret is None:
            given = (f"without the course secret (--secret-file) the roster gives every "
                     f"student")
    elif options.variant is not None:
        variant, student, source, given = options.variant, None, "--variant", "--variant says"
    elif claimed is not None:
        student, variant = claimed
        refused = None
        if options.secret is None:
            refused = (f"its VARIANT file says variant {variant} ({student}'s workbook), which "
                       f"can only be checked with the course secret: grade it with --roster and "
                       f"--secret-file")
        elif variants.derive(options.secret, student) != variant:
            refused = (f"its VARIANT file says variant {variant} for {student}, but that is not "
                       f"{student}'s variant under the course secret: the file was edited or "
                       f"forged")
        return decided(variant, student, "its VARIANT file", refused)
    else:
        return decided(0, None, "self-study", damaged)
    refused = damaged
    if claimed is not None and student is not None and claimed[0] != student:
        refused = (f"its VARIANT file is {claimed[0]}'s, but it was handed in as {student}: a "
                   f"classmate's workbook is not graded")
    elif claimed is not None and claimed[1] != variant:
        refused = (f"its VARIANT file says variant {claimed[1]}, but {given} variant {variant}: "
                   f"the file was edited or copied")
    return decided(variant, student, source, refused,
                   entry.name if options.roster is not None else "")


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
    if not box.as_root:
        return
    for root, dirs, files in os.walk(path):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            os.lchown(name, sandbox.NOBODY, sandbox.NOBODY)


def unit_name(chapter):
    return f"ch{chapter[:2]}_grader_unit.cu"


def grader_name(chapter):
    return f"ch{chapter[:2]}_{chapter[3:]}_grader"


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
        key = hashlib.sha256(f"{options.gpu_targets} {','.join(self.chapters)}".encode())
        self.build_root = os.path.join(os.path.abspath(cache),
                                       f"build-{self.commit[:12]}-{key.hexdigest()[:10]}")
        self.build = os.path.join(self.build_root, "build")
        self.info = None
        self.options = options

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
        """Builds the pristine workbook once, sandboxed, and records what submissions are
        compared with: each grader unit's files and the symbols of the rest of its link. With
        build=False (a GPU node, which builds nothing) it must be built already."""
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
            script = (f"meson setup {BUILD} {SRC} -Dkernels=student "
                      f"-Dgpu_targets={self.options.gpu_targets} -Ddocs=disabled "
                      f"-Dchapters={','.join(self.chapters)} && "
                      f"ninja -C {BUILD} ${{WORKBOOK_BUILD_JOBS:+-j $WORKBOOK_BUILD_JOBS}} "
                      f"{' '.join(grader_name(c) for c in self.chapters)} && "
                      f"python3 {TOOL}/inspect_build.py pristine {BUILD} "
                      f"{' '.join(self.chapters)} --out {{report}}")
            with BuildWatch(log, progress, "the pristine workbook"):
                outcome = self.box.run(["sh", "-c", script], BUILD, log,
                                       self.options.build_time_limit,
                                       binds=[(self.tree, SRC, False), (self.build, BUILD, True),
                                              (HERE, TOOL, False)],
                                       report=True, memory_bytes=BUILD_MEMORY)
            try:
                info = json.loads(outcome.report.decode()) if outcome.exit == 0 else None
            except ValueError:
                info = None
            if not info or not all(info["symbols"][c]["built"] for c in self.chapters):
                with open(log, errors="replace") as f:
                    tail = f.read()[-3000:]
                raise GradingError(f"the pristine workbook did not build ({outcome.describe()}); "
                                   f"see {log}:\n{tail}")
            scoring.write_atomically(info_path, json.dumps(info) + "\n")
            self.info = info

    def skeleton(self, chapter):
        """The bytes of the hand-out's exercise file of `chapter` (its skeleton)."""
        with open(os.path.join(self.tree, exercise_path(chapter)), "rb") as f:
            return f.read()

    def max_score(self, modes):
        return sum(check.points for c in self.chapters for check in self.points[c]
                   if check.mode in modes)

    def check_gpu(self):
        """Why the GPU checks cannot run here, or None: the pristine grader of the first
        chapter is asked, in the sandbox, as the graders will run."""
        self.ensure_built()
        log = os.path.join(self.build_root, "gpu-check.log")
        if os.path.exists(log):
            os.remove(log)
        outcome = self.box.run([os.path.join(BUILD, grader_name(self.chapters[0])), "device"],
                               "/tmp", log, 120, binds=[(self.build, BUILD, False),
                                                        (self.tree, SRC, False)], gpu=True)
        with open(log, errors="replace") as f:
            said = f.read().strip()
        if outcome.exit == 0:
            return None
        return said or outcome.describe()


class BuildWatch:
    """While a build runs, says every `every` seconds how far it has got (ninja's last [n/m] in
    its log), so that a long build is never silent."""

    STEP = re.compile(rb"\[(\d+)/(\d+)\]")

    def __init__(self, log, progress, what, every=15.0):
        self.log, self.progress, self.what, self.every = log, progress, what, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def watch(self):
        start = time.monotonic()
        while not self.stop.wait(self.every):
            try:
                with open(self.log, "rb") as f:
                    f.seek(max(0, os.path.getsize(self.log) - 8192))
                    steps = self.STEP.findall(f.read())
            except OSError:
                steps = []
            where = f"step {int(steps[-1][0])} of {int(steps[-1][1])}" if steps else "configuring"
            self.progress(f"{self.what}: {where}, {time.monotonic() - start:.0f} s so far")

    def __enter__(self):
        if self.progress:
            self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


def stop_everything(signum, _frame):
    """Signal handler (tools/instructor/grade installs it for SIGINT and SIGTERM): kills every
    sandbox this tool started (and with it every process in it), then exits. Finished results
    are already on disk."""
    sandbox.stop_everything()
    print(f"\ngrade: stopped by signal {signum}; finished results are kept, run the same "
          f"command again to go on", file=sys.stderr, flush=True)
    os._exit(128 + signum)


class Prepared:
    """A submission laid over the pristine workbook and built."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def overlay_dirs(work):
    names = ("src-upper", "src-work", "build-upper", "build-work")
    return {n: os.path.join(work, n) for n in names}


def overlays(workbook, dirs, writable):
    return [(workbook.tree, dirs["src-upper"], dirs["src-work"], SRC, writable),
            (workbook.build, dirs["build-upper"], dirs["build-work"], BUILD, writable)]


def judge_files(workbook, chapter, files):
    """The files a chapter's grader unit reads that the pristine unit does not, and that an
    exercise file may not include: anything but the workbook's headers under its chapter's
    folder and common/, and the system's and the toolkit's headers."""
    baseline = set(workbook.info["deps"][chapter]["files"])
    refused = []
    for path in files:
        if path in baseline:
            continue
        if path == f"{SRC}/{exercise_path(chapter)}":
            continue
        workbook_header = (path.startswith(f"{SRC}/chapters/{chapter}/")
                           or path.startswith(f"{SRC}/common/")) and path.endswith(HEADER_SUFFIXES)
        system_header = not path.startswith(os.path.dirname(SRC) + "/") and "/include/" in path
        if not (workbook_header or system_header):
            shown = path[len(SRC) + 1:] if path.startswith(SRC + "/") else path
            refused.append(shown)
    return refused


LINKER = re.compile(r"(multiple definition|undefined reference) (?:of|to) `([^']+)'")


def linker_said(line):
    """A linker's complaint about the student's unit, in the student's terms."""
    found = LINKER.search(line)
    if not found:
        return None
    kind, name = found.groups()
    if kind == "multiple definition":
        return (f"your exercise file defines {name}, which the grader's own code defines too: a "
                f"grader's function cannot be replaced (rename yours)")
    return f"{name} is used but never defined (the linker found no definition of it)"


def shown_errors(text, chapter, limit=12):
    """The compiler's and linker's lines about a chapter's exercise, for the student (paths
    inside the sandbox made relative to the workbook, linkers' complaints in words)."""
    lines = []
    for line in text.splitlines():
        if linker_said(line) and (unit_name(chapter) in line or f"ch{chapter[:2]}_" in line):
            lines.append(linker_said(line))
            continue
        if (exercise_path(chapter) in line or unit_name(chapter) in line
                or "multiple definition of" in line or "undefined reference to" in line) and \
                ("error" in line or "multiple definition" in line or "undefined reference" in line):
            line = line.replace(f"{SRC}/", "").replace("../src/", "")
            lines.append(line.strip()[:300])
    return list(dict.fromkeys(lines))[:limit]


def prepare(workbook, path, directory, options, ident=None, niceness=0):
    """Reads the submission at `path`, lays its exercise files over the pristine workbook in a
    work folder under `directory`, and builds what they reach, in the sandbox. `ident` names the
    submission where its path does not (Gradescope's metadata names its student); `niceness`
    lowers the build's CPU priority (a build queued behind the next one to be checked)."""
    start = time.monotonic()
    workbook.ensure_built()
    box = workbook.box
    ident = ident or submission.submission_id(path)
    notes, refused, failed_build = [], {}, {}
    work = os.path.join(SCRATCH[0], f"{ident}-{os.getpid()}-{time.time_ns()}")
    dirs = overlay_dirs(work)
    for d in dirs.values():
        os.makedirs(d)
    try:
        files = submission.read_files(path)
        notes += files.notes
    except submission.SubmissionError as e:
        files = {}
        notes.append(f"The submission could not be read: {e.reason}.")
    # exercise_files lists what was not read (links, devices, files too large) as ignored.
    exercises, ignored = submission.exercise_files(files, workbook.chapters)
    variant = decide_variant(ident, files, options)
    if variant["refused"]:
        # Nothing of it is graded on a variant it may not have: every chapter is refused.
        reason = "Not graded: " + variant["refused"]
        notes.append(reason + ".")
        refused = {chapter: reason for chapter in workbook.chapters}
        exercises = {}
    submitted, untouched = [], {}
    for chapter in workbook.chapters:
        if chapter in refused:
            continue
        if chapter not in exercises:
            notes.append(f"{chapter}: no exercise file in the submission; its skeleton is graded.")
            untouched[chapter] = "no exercise file was handed in for this chapter"
            continue
        if exercises[chapter][1] == workbook.skeleton(chapter):
            # The hand-out's file, untouched: the pristine grader is its grader, nothing to
            # build (a class hands in many untouched chapters).
            notes.append(f"{chapter}: the exercise file is the hand-out's, untouched; its "
                         f"skeleton is graded.")
            untouched[chapter] = "the exercise file is the hand-out's skeleton, untouched"
            continue
        target = os.path.join(dirs["src-upper"], exercise_path(chapter))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(exercises[chapter][1])
        submitted.append(chapter)
    # The hidden checks' source, out of the submission's view: a stand-in of the same age, so
    # that the build keeps the pristine objects.
    for relative in workbook.hidden_sources:
        original = os.path.join(workbook.tree, relative)
        stand_in = os.path.join(dirs["src-upper"], relative)
        os.makedirs(os.path.dirname(stand_in), exist_ok=True)
        with open(stand_in, "w") as f:
            f.write("// Not shown to submissions.\n")
        stat = os.stat(original)
        os.utime(stand_in, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    chown_tree(work, box)
    log = os.path.join(work, "build.log")
    infrastructure = None
    deadline = time.monotonic() + options.build_time_limit

    def inspect(what, chapters):
        """inspect_build.py `what` on `chapters` in the sandbox, over this submission's overlays:
        (the Outcome, its JSON or None)."""
        outcome = box.run(["python3", f"{TOOL}/inspect_build.py", what, BUILD] + chapters
                          + ["--out", "{report}"], BUILD, log, deadline - time.monotonic(),
                          overlays=overlays(workbook, dirs, True), binds=[(HERE, TOOL, False)],
                          report=True, memory_bytes=BUILD_MEMORY, niceness=niceness)
        return outcome, parse_json(outcome.report)

    if submitted:
        # 1. Which files each submitted unit reads, by the compiler's own account.
        outcome, found = inspect("deps", submitted)
        if outcome.timed_out:
            out_of_time(submitted, failed_build, options)
        elif found is None:
            infrastructure = f"the dependency scan failed ({outcome.describe()})"
        else:
            for chapter in submitted:
                entry = found.get(chapter, {})
                if entry.get("status") != 0:
                    errors = entry.get("errors", "")
                    if RESOURCE_ERRORS.search(errors):
                        infrastructure = "the machine ran out of a resource while building " \
                                         "(see build.log)"
                    failed_build[chapter] = ("the exercise file does not compile" +
                                             (":\n" + "\n".join(shown_errors(errors, chapter))
                                              if shown_errors(errors, chapter) else
                                              " (the preprocessor stopped; no line names your "
                                              "file)"))
                    continue
                bad = judge_files(workbook, chapter, entry.get("files", []))
                if bad:
                    refused[chapter] = ("Not graded: the exercise file reads "
                                        + ", ".join(bad[:5]) + (" and more" if len(bad) > 5 else "")
                                        + "; an exercise file may include only system headers "
                                        f"and the workbook's own headers under chapters/{chapter}/ "
                                        f"and common/")
                    notes.append(f"{chapter}: {refused[chapter]}.")
        # 2. Build what the allowed exercise files reach; list the symbols their units define.
        to_build = [c for c in submitted if c not in refused and c not in failed_build]
        if to_build and infrastructure is None:
            outcome, found = inspect("symbols", to_build)
            with open(log, errors="replace") as f:
                build_text = f.read()
            if outcome.timed_out:
                out_of_time(to_build, failed_build, options)
            elif found is None:
                infrastructure = f"the build failed ({outcome.describe()})"
            else:
                for chapter in to_build:
                    entry = found.get(chapter, {})
                    if not entry.get("built"):
                        errors = shown_errors(build_text, chapter)
                        if errors and not RESOURCE_ERRORS.search(build_text):
                            failed_build[chapter] = "the exercise file does not compile:\n" + \
                                "\n".join(errors)
                        else:
                            infrastructure = ("the build failed without an error that names the "
                                              "exercise file" if not errors else
                                              "the machine ran out of a resource while building")
                        continue
                    protected = set(workbook.info["symbols"][chapter]["others"])
                    clashes = sorted(s for s in entry["unit"] if s in protected
                                     and not library_instance(s, entry["unit"][s]))
                    if clashes:
                        names = demangle(clashes[:5])
                        refused[chapter] = ("Not graded: the exercise file defines "
                                            + ", ".join(names) + ", which the grader's own code "
                                            "or a library it uses defines; a grader's function "
                                            "cannot be replaced (rename yours)")
                        notes.append(f"{chapter}: {refused[chapter]}.")
    return Prepared(ident=ident, path=path, directory=directory, work=work, dirs=dirs,
                    notes=notes, refused=refused, variant=variant, failed_build=failed_build,
                    ignored=ignored, untouched=untouched,
                    infrastructure=infrastructure,
                    fingerprint=submission.fingerprint(exercises, ignored),
                    build_seconds=time.monotonic() - start)


def out_of_time(chapters, failed_build, options):
    for chapter in chapters:
        failed_build[chapter] = f"the build did not finish in {options.build_time_limit} s"


def parse_json(data):
    try:
        return json.loads(data.decode()) if data else None
    except (ValueError, UnicodeDecodeError):
        return None


def library_instance(symbol, kind):
    """A weak definition of the standard library's templates (std::vector<int> and the like),
    which every unit that uses them carries and nothing replaces."""
    return kind in ("W", "V", "u") and symbol.startswith(
        ("_ZNSt", "_ZNKSt", "_ZSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx", "_ZTVSt", "_ZTISt",
         "_ZTSSt", "_ZGVZNSt", "_ZZNSt"))


def demangle(symbols):
    shown = subprocess.run(["c++filt"], input="\n".join(symbols), capture_output=True, text=True)
    names = shown.stdout.split("\n") if shown.returncode == 0 else symbols
    return [n[:120] for n in names[:len(symbols)]]


# Where a GPU grader finds the lock its checks share with the submission's other graders, and
# the line it prints once it holds it (grader_main.cpp); how many graders start at once.
GPU_LOCK = "/grading/gpu.lock"
GPU_LOCK_TAKEN = "GPU checks start: the GPU is this grader's after"
GPU_GRADERS_AT_ONCE = 3
EXIT_MARK = re.compile(r'workbook-grader: exit\(\) was called while the check "(.*)" ran')


class Checked:
    """What the checks of a prepared submission gave so far: the tests scored, the notes, the
    fault of the machine that stopped them (`infrastructure`), whether the time limit ran out,
    and the seconds they took. A Slurm class runs the host checks with the build and the GPU
    checks in a task of their own: the second phase goes on from the first's (to_json)."""

    def __init__(self, tests=(), notes=(), infrastructure=None, timed_out=False, seconds=0.0):
        self.tests, self.notes = list(tests), list(notes)
        self.infrastructure, self.timed_out, self.seconds = infrastructure, timed_out, seconds

    def to_json(self):
        return {"tests": self.tests, "notes": self.notes, "infrastructure": self.infrastructure,
                "timed_out": self.timed_out, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data):
        return cls(data["tests"], data["notes"], data["infrastructure"], data["timed_out"],
                   data["seconds"])


def run_grader(workbook, prepared, options, chapter, mode, deadline, log, gpu_lock=None):
    """Runs one chapter's grader in `mode`, sandboxed, its output appended to `log`: (what it
    reported {check: (status, message)}, why the checks that did not report are missing, notes,
    the fault of the machine it met, whether it ran out of time). With `gpu_lock` (a file), the
    grader's checks wait for that lock (grader_main.cpp), which other graders of the submission
    running at the same time share."""
    reported, reasons, notes = {}, {}, []
    infrastructure, timed_out = None, False
    with open(log, "a") as f:
        f.write(f"\n==== {chapter} {mode} ====\n")
    mark = os.path.getsize(log)
    left = deadline - time.monotonic()
    env = {"WORKBOOK_GPU_TIMEOUT": str(max(1, int(left))), "WORKBOOK_MEASUREMENTS_DIR": "/tmp",
           "WORKBOOK_VARIANT": str(prepared.variant["variant"])}
    if gpu_lock:
        env["WORKBOOK_GPU_LOCK"] = GPU_LOCK
    outcome = workbook.box.run(
        [f"{BUILD}/{grader_name(chapter)}", mode, "-r", "xml", "-o", "{report}"],
        "/tmp", log, left, overlays=overlays(workbook, prepared.dirs, False), env=env,
        binds=[(gpu_lock, GPU_LOCK, False)] if gpu_lock else [],
        report=True, report_bytes=catch_xml.REPORT_BYTES, gpu=mode == "gpu",
        memory_bytes=None if mode == "gpu" else GRADER_MEMORY,
        file_bytes=256 << 20)
    with open(log, "rb") as f:
        f.seek(mark)
        said = f.read().decode("utf-8", "replace")
    with open(log, "a") as f:  # which chapter's checks take the time, for the instructor
        f.write(f"\n==== {chapter} {mode}: {outcome.seconds:.1f} s in the sandbox ====\n")
    try:
        reported = catch_xml.parse(outcome.report or b"")
    except catch_xml.ReportRefused as e:
        reported = {}
        notes.append(f"{chapter} {mode}: the grader's report was refused: {e}; "
                     f"none of its checks count.")
        reasons[mode] = f"no result: the report was refused ({e})"
    exited = EXIT_MARK.search(said)
    if mode in reasons:
        pass
    elif outcome.setup_error:
        infrastructure = "the sandbox failed: " + outcome.setup_error
        reasons[mode] = "not graded: " + infrastructure
    elif outcome.timed_out and gpu_lock and GPU_LOCK_TAKEN not in said:
        timed_out = True
        reasons[mode] = (f"not run: the time limit of {options.time_limit} s ran out before "
                         f"these checks had the GPU (other chapters' checks held it)")
    elif outcome.timed_out:
        timed_out = True
        reasons[mode] = (f"the time limit of {options.time_limit} s ran out while "
                         f"the {mode} checks ran; the grader was stopped")
    elif outcome.exit == 77 and mode == "gpu":
        lines = said.strip().splitlines()
        why = next((line for line in lines if "SKIP" in line), lines[0] if lines else "")
        infrastructure = "the GPU checks could not use the GPU: " + (why[:200] or "no usable GPU")
        reasons[mode] = "not graded: " + infrastructure
    elif exited:
        reasons[mode] = (f"your code called exit() while the check "
                         f"\"{exited.group(1)}\" ran ({outcome.describe()} after it); "
                         f"the checks after it did not run")
    elif outcome.signal is not None:
        reasons[mode] = (f"the grader was killed by signal {outcome.signal} before "
                         f"this check reported (a crash in your code?)")
    else:
        reasons[mode] = (f"the grader exited (status {outcome.exit}) before this "
                         f"check reported: something ended the process early")
    points = {check.name for check in workbook.points[chapter] if check.mode == mode}
    stray = sorted(set(reported) - points)
    if stray:
        notes.append(f"{chapter}: checks without points (not scored): " + "; ".join(stray))
    return reported, reasons, notes, infrastructure, timed_out


def run_checks(workbook, prepared, options, modes, checked=None):
    """Runs the graders of a prepared submission in `modes`, each in the sandbox, after what
    `checked` (a Checked) holds, and scores them. The host checks of the chapters run side by
    side (they only use the CPU); the GPU graders GPU_GRADERS_AT_ONCE at a time, their checks one
    chapter at a time (the lock), the GPU to themselves.
    The time limit bounds all the checks of the submission, those in `checked` included."""
    checked = checked or Checked()
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
            # A few graders at once, their checks one at a time (the lock): the next graders
            # start (process, sandbox, CUDA context: about half a second each on the H200)
            # while one checks. A fault or a timeout stops the graders not yet started.
            gpu_lock = os.path.join(prepared.work, "gpu.lock")
            with open(gpu_lock, "w"):
                pass
            os.chmod(gpu_lock, 0o644)

        def one(chapter, chapter_log):
            reason = blocked(chapter)
            if reason:
                return {}, {mode: reason}, [], None, False
            outcome = run_grader(workbook, prepared, options, chapter, mode, deadline,
                                 chapter_log, gpu_lock)
            if mode == "gpu":  # a GPU fault or a timeout: the graders not yet started do not run
                checked.infrastructure = checked.infrastructure or outcome[3]
                checked.timed_out = checked.timed_out or outcome[4]
            return outcome

        # Host checks side by side (they only use the CPU), GPU graders a few at a time; each
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
        for chapter, (reported, reasons, notes, infrastructure, timed_out) in \
                zip(workbook.chapters, outcomes):
            checked.notes += notes
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
    if infrastructure:
        notes.append("Not graded, to be retried: " + infrastructure + ".")
    return {
        "submission": prepared.ident, "mode": "+".join(options.modes()),
        "variant": prepared.variant["variant"], "student": prepared.variant["student"],
        "name": prepared.variant.get("name", ""), "variant_source": prepared.variant["source"],
        "workbook": workbook.commit, "options": options.describe(),
        "fingerprint": prepared.fingerprint,
        "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
        "seconds": prepared.build_seconds + checked.seconds,
        "build_seconds": round(prepared.build_seconds, 1),
        "run_seconds": round(checked.seconds, 1),
        "notes": notes, "ignored": prepared.ignored, "tests": tests,
        "complete": infrastructure is None, "error": infrastructure,
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
        if not options.gpu:
            keep_logs(prepared)
            return write_result(workbook, directory, result_of(workbook, prepared, options,
                                                               checked), key)
        keep_logs(prepared)
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
        for name in ("build.log", "run.log"):  # the build phase's logs, then this phase's
            if name == "run.log" and os.path.isfile(os.path.join(directory, name)):
                with open(os.path.join(directory, name), "ab") as whole, \
                        open(os.path.join(prepared.work, name), "rb") as part:
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
