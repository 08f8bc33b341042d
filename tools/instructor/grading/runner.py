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
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

from . import catch_xml, sandbox, scoring, submission, variants

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# Official grading adds each chapter's hidden checks to the pristine workbook: other cases of the
# same functions and kernels, which a hand-out never runs: every file solutions/NN_slug/hidden_*
# (hidden_checks.cpp, hidden_points.tsv, and any header of theirs, such as chapter 09's
# hidden_tile.hpp). Their source is never in a submission's view: the build there sees a
# stand-in of the same age.
HIDDEN_PREFIX = "hidden_"
SRC, BUILD, TOOL = "/grading/src", "/grading/build", "/grading/tool"
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
    id, the variant it is graded on; `variant` grades every submission on one variant;
    `secret` (bytes) checks a submission's own VARIANT file where there is no roster. With none
    of them a submission without a VARIANT file is graded on variant 0 (self-study)."""

    def __init__(self, gpu=False, chapters=None, gpu_targets="75", time_limit=600,
                 build_time_limit=1800, visibility="visible", roster=None, variant=None,
                 secret=None, roster_path=None, secret_path=None):
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

    def decided(variant, student, source, refused):
        return {"variant": variant, "student": student, "source": source, "refused": refused}

    if options.roster is not None:
        variant, student, source = options.roster.variant_of(ident), ident, "roster"
        given = f"the roster gives {ident}"
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
    return decided(variant, student, source, refused)


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

    def __init__(self, cache, box, options, source_root=SOURCE_ROOT):
        commit = subprocess.run(["git", "-C", source_root, "rev-parse", "HEAD"],
                                capture_output=True, text=True)
        if commit.returncode != 0:
            sys.exit(f"grade: {source_root} is not a git checkout with a commit; the pristine "
                     f"workbook is made from the committed HEAD")
        self.commit = commit.stdout.strip()
        self.box = box
        self.root = os.path.join(os.path.abspath(cache), "workbook-" + self.commit[:12])
        if not os.path.isdir(os.path.join(self.root, "workbook")):
            self._extract(cache, source_root)
        self.tree = os.path.join(self.root, "workbook")
        available = sorted(d for d in os.listdir(os.path.join(self.tree, "chapters"))
                           if os.path.isfile(os.path.join(self.tree, "grader", d, "points.tsv")))
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
            if name.startswith(HIDDEN_PREFIX) and not name.endswith(".tsv"))
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
                if not name.startswith(HIDDEN_PREFIX):
                    continue
                data = committed_file(source_root, f"solutions/{chapter}/{name}")
                if data is not None:
                    os.makedirs(os.path.join(tree, "solutions", chapter), exist_ok=True)
                    with open(os.path.join(tree, "solutions", chapter, name), "wb") as f:
                        f.write(data)
        try:
            os.rename(temporary, self.root)
        except OSError:  # another task made it first
            shutil.rmtree(temporary, ignore_errors=True)

    def ensure_built(self, progress=None):
        """Builds the pristine workbook once, sandboxed, and records what submissions are
        compared with: each grader unit's files and the symbols of the rest of its link."""
        info_path = os.path.join(self.build_root, "info.json")
        if self.info is None and os.path.isfile(info_path):
            with open(info_path) as f:
                self.info = json.load(f)
        if self.info is not None:
            return
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
                      f"-Dchapters={','.join(self.chapters)} && ninja -C {BUILD} && "
                      f"python3 {TOOL}/inspect_build.py pristine {BUILD} "
                      f"{' '.join(self.chapters)} --out {{report}}")
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
        system_header = not path.startswith("/grading/") and "/include/" in path
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


def prepare(workbook, path, directory, options):
    """Reads the submission at `path`, lays its exercise files over the pristine workbook in a
    work folder under `directory`, and builds what they reach, in the sandbox."""
    start = time.monotonic()
    workbook.ensure_built()
    box = workbook.box
    ident = submission.submission_id(path)
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
    submitted = []
    for chapter in workbook.chapters:
        if chapter in refused:
            continue
        if chapter not in exercises:
            notes.append(f"{chapter}: no exercise file in the submission; its skeleton is graded.")
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
                          report=True, memory_bytes=BUILD_MEMORY)
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
                    notes=notes, refused=refused, variant=variant, failed_build=failed_build, ignored=ignored,
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


EXIT_MARK = re.compile(r'workbook-grader: exit\(\) was called while the check "(.*)" ran')


def run(workbook, prepared, options):
    """Runs the graders of a prepared submission, each in the sandbox, and scores them."""
    start = time.monotonic()
    box = workbook.box
    log = os.path.join(prepared.work, "run.log")
    deadline = time.monotonic() + options.time_limit
    notes = list(prepared.notes)
    tests = []
    timed_out = False
    infrastructure = prepared.infrastructure
    for mode in options.modes():
        for chapter in workbook.chapters:
            reported, reasons = {}, {}
            if chapter in prepared.refused:
                reasons[mode] = prepared.refused[chapter]
            elif chapter in prepared.failed_build:
                reasons[mode] = prepared.failed_build[chapter]
            elif infrastructure:
                reasons[mode] = "not graded: " + infrastructure
            elif timed_out or time.monotonic() >= deadline:
                reasons[mode] = f"not run: the time limit of {options.time_limit} s ran out"
            else:
                with open(log, "a") as f:
                    f.write(f"\n==== {chapter} {mode} ====\n")
                mark = os.path.getsize(log)
                left = deadline - time.monotonic()
                outcome = box.run(
                    [f"{BUILD}/{grader_name(chapter)}", mode, "-r", "xml", "-o", "{report}"],
                    "/tmp", log, left, overlays=overlays(workbook, prepared.dirs, False),
                    env={"WORKBOOK_GPU_TIMEOUT": str(max(1, int(left))),
                         "WORKBOOK_MEASUREMENTS_DIR": "/tmp",
                         "WORKBOOK_VARIANT": str(prepared.variant["variant"])},
                    report=True, report_bytes=catch_xml.REPORT_BYTES, gpu=mode == "gpu",
                    memory_bytes=None if mode == "gpu" else GRADER_MEMORY,
                    file_bytes=256 << 20)
                with open(log, "rb") as f:
                    f.seek(mark)
                    said = f.read().decode("utf-8", "replace")
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
                elif outcome.timed_out:
                    timed_out = True
                    reasons[mode] = (f"the time limit of {options.time_limit} s ran out while "
                                     f"the {mode} checks ran; the grader was stopped")
                elif outcome.exit == 77 and mode == "gpu":
                    infrastructure = "the GPU checks could not use the GPU: " + \
                        said.strip().splitlines()[0][:200] if said.strip() else "no usable GPU"
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
                     and t["chapter"] not in prepared.failed_build for t in tests)
    if timed_out:
        notes.append(f"The time limit of {options.time_limit} s ran out; the checks that had "
                     f"not reported score zero.")
    elif unreported and not infrastructure:
        notes.append(f"{unreported} check(s) did not report and score zero (see the report).")
    if infrastructure:
        notes.append("Not graded, to be retried: " + infrastructure + ".")
    tests.sort(key=lambda t: (t["chapter"], t["mode"] != "host"))
    for name in ("build.log", "run.log"):  # kept beside the results; the work folder goes
        if os.path.isfile(os.path.join(prepared.work, name)):
            shutil.copyfile(os.path.join(prepared.work, name),
                            os.path.join(prepared.directory, name))
    return {
        "submission": prepared.ident, "mode": "+".join(options.modes()),
        "variant": prepared.variant["variant"], "student": prepared.variant["student"],
        "variant_source": prepared.variant["source"],
        "workbook": workbook.commit, "options": options.describe(),
        "fingerprint": prepared.fingerprint,
        "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
        "seconds": prepared.build_seconds + time.monotonic() - start,
        "build_seconds": round(prepared.build_seconds, 1),
        "run_seconds": round(time.monotonic() - start, 1),
        "notes": notes, "ignored": prepared.ignored, "tests": tests,
        "complete": infrastructure is None, "error": infrastructure,
    }


def finish(workbook, prepared, options, key=None, keep_work=False):
    """Runs a prepared submission's checks, writes its outputs (with `key`, what a class run
    compares to reuse it) and removes its work folder unless asked to keep it. A submission that
    could not be graded for a fault of the machine gets only its result.json, marked to retry."""
    result = run(workbook, prepared, options)
    if key is not None:
        result["key"] = key
    if result["complete"]:
        scoring.write_outputs(prepared.directory, result, workbook.chapters)
    else:
        scoring.write_atomically(os.path.join(prepared.directory, "result.json"),
                                 json.dumps(result, indent=2) + "\n")
    if not keep_work:
        shutil.rmtree(prepared.work, ignore_errors=True)
    return result


def grade_one(workbook, path, directory, options, key=None, keep_work=False):
    os.makedirs(directory, exist_ok=True)
    return finish(workbook, prepare(workbook, path, directory, options), options, key, keep_work)
