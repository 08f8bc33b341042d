"""A submission's code built, every command in the sandbox: the variant it is graded on, then
each exercise file built into its chapter's subject (the process the pristine judge calls:
grader/harness/subject_link.hpp) from a view that holds nothing of grading (subject_view), and,
for the GPU checks, into its kernels over the pristine workbook (build_kernels).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

from . import build_errors, pristine, sandbox, scoring, submission, variants
from .pristine import BUILD_MEMORY, chown_tree, exercise_path, kernels_name

HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")
# Of grader/, what a subject's build reads: the header of the judge's channel.
SUBJECT_HEADERS = ("subject_protocol.hpp",)
MAKE_UNIT = os.path.join("grader", "tools", "make_grader_unit.py")
NOT_THERE = ("\n(A submission's code is built with its chapter's headers and common/cuda and "
             "common/counters only: the bank model, common/model, and the graders are not there; "
             "an exercise computes its answers itself.)")
# Where submissions' work folders go (tools/instructor/grade --scratch): a local disk, since an
# overlay's changes cannot live on a network file system.
SCRATCH = [os.path.join("/tmp", f"workbook-grading-{os.getuid()}")]


def variant_file_of(files):
    """The bytes of the submission's VARIANT file (a hand-out's, at its root), or None."""
    found = sorted((n for n in files if n == "VARIANT" or n.endswith("/VARIANT")),
                   key=lambda n: (n.count("/"), n))
    return files[found[0]] if found else None


def decide_variant(ident, files, options):
    """The variant submission `ident` (its files `files`) is graded on: a dict with variant,
    student, how it was decided (source) and, when the submission is refused for it, refused
    (why, naming the rule). The roster's entry (or --variant) decides, and a VARIANT file the
    submission carries must agree with it. With the course secret alone, the submission's own
    id is its student: its VARIANT file must be that student's and carry that student's variant
    under the secret, and a submission without one is refused (never graded on variant 0, the
    cases everyone shares). With none of them, a VARIANT file is checked as far as it can be."""
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
            given = "without the course secret (--secret-file) the roster gives every student"
    elif options.variant is not None:
        variant, student, source, given = options.variant, None, "--variant", "--variant says"
    elif options.secret is not None:
        # The secret alone: the submission's id names its student, whose variant it must carry.
        student = ident
        variant = variants.derive(options.secret, student) if ident else 0
        rule = "with --secret-file the submission's id names its student"
        if damaged:
            refused = f"{damaged} ({rule})"
        elif claimed is None:
            refused = (f"it carries no VARIANT file: {rule}, whose workbook's VARIANT file it "
                       f"must hand in, so that it is graded on {student}'s cases, not on the "
                       f"self-study ones")
        elif claimed[0] != student:
            refused = (f"its VARIANT file is {claimed[0]}'s, but it was handed in as {student} "
                       f"({rule}): a classmate's workbook is not graded")
        elif claimed[1] != variant:
            refused = (f"its VARIANT file says variant {claimed[1]} for {student}, but that is "
                       f"not {student}'s variant under the course secret: the file was edited "
                       f"or forged")
        else:
            refused = None
        return decided(variant, student, "the course secret and the submission's id", refused)
    elif claimed is not None:
        student, variant = claimed
        return decided(variant, student, "its VARIANT file",
                       f"its VARIANT file says variant {variant} ({student}'s workbook), which can "
                       f"only be checked with the course secret: grade it with --roster or "
                       f"--secret-file")
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


class Prepared:
    """A submission laid over the pristine workbook and built."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def overlay_dirs(work):
    names = ("src-upper", "src-work", "build-upper", "build-work")
    return {n: os.path.join(work, n) for n in names}


def overlays(workbook, dirs, writable):
    return [(workbook.tree, dirs["src-upper"], dirs["src-work"], pristine.SRC, writable),
            (workbook.build, dirs["build-upper"], dirs["build-work"], pristine.BUILD, writable)]


def whose_failure(chapter, text, baseline):
    """(the compiler's lines for the student, None) where the failed build of `chapter` is the
    student's, or (None, why) where it is the machine's (build_errors.py); `baseline` the files
    the build reads besides the exercise."""
    return build_errors.judge(text, chapter, baseline, pristine.BUILD, [pristine.SRC, "../src"])


def subject_sources(tree):
    """The files of workbook `tree` in every subject's view, besides its exercise: the judge's
    channel, common/ less the bank model and tests, and the interface headers of every chapter
    (a later chapter's builds on an earlier one's, as chapter 12's includes chapter 11's, which a
    submission may leave untouched; they are the hand-out's and hold no answer)."""
    wanted = [os.path.join("grader", "harness", n) for n in SUBJECT_HEADERS]
    for root, dirs, names in os.walk(os.path.join(tree, "common")):
        dirs[:] = [d for d in dirs if d not in ("model", "tests")]
        wanted += [os.path.relpath(os.path.join(root, n), tree) for n in names
                   if n != "meson.build"]
    for chapter in sorted(os.listdir(os.path.join(tree, "chapters"))):
        folder = os.path.join("chapters", chapter)
        if os.path.isdir(os.path.join(tree, folder)):
            wanted += [os.path.join(folder, n) for n in os.listdir(os.path.join(tree, folder))
                       if n.endswith(HEADER_SUFFIXES)]
    return wanted


def subject_view(workbook, work, chapters):
    """What a submission's subjects are built from, laid out in `work`: src/ (seen at SRC) holds
    the chapters' headers, common/ without the bank model (common/model) and the header of
    the judge's channel; build/ (seen at BUILD) the subjects' generated mains and the common
    libraries their link lines name (the CUDA helpers). Nothing of grading: no checks, no hidden
    checks, no points, no answers, no bank model. Returns (src, build, the files the build reads
    besides the exercises)."""
    src, build = os.path.join(work, "subject", "src"), os.path.join(work, "subject", "build")
    tree = workbook.tree
    wanted = subject_sources(tree)
    for relative in wanted:
        os.makedirs(os.path.dirname(os.path.join(src, relative)), exist_ok=True)
        shutil.copyfile(os.path.join(tree, relative), os.path.join(src, relative))
    os.makedirs(os.path.join(build, "common"))
    # The CUDA helpers' archives, as the pristine build's link lines of the subjects name them.
    links = " ".join(workbook.info["subjects"][c]["link"] for c in chapters)
    for archive in sorted(set(re.findall(r"(?:^|[\s=])(common/[\w./-]+\.a)\b", links))):
        copy_archive(workbook.build, archive, build)
    for chapter in chapters:
        main = workbook.info["subjects"][chapter]["main"]
        shutil.copyfile(os.path.join(workbook.build, main), os.path.join(build, main))
    return src, build, {f"{pristine.SRC}/{r}" for r in wanted}


def copy_archive(folder, relative, target):
    """Copies the static library `relative` of build folder `folder` to `target`, whole: Meson
    writes thin archives, whose members stay in their build folder, where a subject's build,
    which sees only its view, cannot reach them."""
    source = os.path.join(folder, relative)
    with open(source, "rb") as f:
        thin = f.read(8) == b"!<thin>\n"
    if not thin:
        shutil.copyfile(source, os.path.join(target, relative))
        return
    listed = subprocess.run(["ar", "t", relative], cwd=folder, capture_output=True, text=True)
    made = subprocess.run(["ar", "rcs", os.path.join(target, relative)]
                          + [os.path.join(folder, m) for m in listed.stdout.split()],
                          capture_output=True, text=True) if listed.returncode == 0 else listed
    if made.returncode != 0:
        raise OSError(f"copying {relative} failed: {made.stderr.strip()[:300]}")


def build_subjects(workbook, work, exercises, chapters, log, timeout, niceness):
    """Builds the subject (the exercise, the interface, the generated main and the CUDA helpers:
    grader/harness/subject_protocol.hpp) of each of `chapters` from their files in `exercises`, in
    the sandbox, in the view subject_view lays out: {chapter: the subject's path, or the
    build's Outcome when it ran out of time, or (status, what the build printed)}."""
    src, build, baseline = subject_view(workbook, work, chapters)
    for chapter in chapters:
        target = os.path.join(src, exercise_path(chapter))
        with open(target, "wb") as f:
            f.write(exercises[chapter][1])
        made = workbook.info["subjects"][chapter]
        unit = subprocess.run([sys.executable, os.path.join(workbook.tree, MAKE_UNIT),
                               made["unit"], f"../src/{exercise_path(chapter)}", made["main"]],
                              cwd=build, capture_output=True, text=True)
        if unit.returncode != 0:
            raise pristine.GradingError(f"making {chapter}'s subject unit failed: "
                                        f"{unit.stderr.strip()[:300]}")
        with open(os.path.join(build, f"{chapter}.sh"), "w") as f:
            f.write(f"mkdir -p {made['objects']} && {made['compile']} && {made['link']}\n")
    chown_tree(os.path.join(work, "subject"), workbook.box)
    jobs = "${WORKBOOK_BUILD_JOBS:-$(nproc)}"
    script = (f"ls *.sh | xargs -P {jobs} -n 1 sh -c "
              "'sh \"$0\" > \"$0.log\" 2>&1; echo $? > \"$0.status\"'")
    outcome = workbook.box.run(["sh", "-c", script], pristine.BUILD, log, timeout,
                               binds=[(src, pristine.SRC, False), (build, pristine.BUILD, True)],
                               memory_bytes=BUILD_MEMORY, niceness=niceness)
    if outcome.timed_out or outcome.setup_error:
        return {chapter: outcome for chapter in chapters}
    built = {}
    for chapter in chapters:
        try:
            with open(os.path.join(build, f"{chapter}.sh.status")) as f:
                status = int(f.read().strip() or 1)
            with open(os.path.join(build, f"{chapter}.sh.log"), errors="replace") as f:
                said = f.read()[-(1 << 20):]
        except (OSError, ValueError):
            status, said = 1, ""
        with open(log, "a") as f:
            f.write(f"\n==== {chapter}'s subject ====\n{said}")
        subject = os.path.join(build, workbook.info["subjects"][chapter]["target"])
        built[chapter] = subject if status == 0 and os.path.isfile(subject) else \
            (status, said, baseline)
    return built


def prepare(workbook, path, directory, options, ident=None, niceness=0):
    """Reads the submission at `path`, lays its exercise files over the pristine workbook in a
    work folder under `directory`, and builds what they reach, in the sandbox. `ident` names the
    submission where its path does not (Gradescope's metadata names its student); `niceness`
    lowers the build's CPU priority (a build queued behind the next one to be checked)."""
    start = time.monotonic()
    workbook.ensure_built()
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
        notes.append(f"{scoring.UNREADABLE}{e.reason}.")
    # exercise_files lists what was not read (links, devices, files too large) as ignored.
    exercises, ignored = submission.exercise_files(files, workbook.chapters)
    variant = decide_variant(ident, files, options)
    if variant["refused"]:
        # Nothing of it is graded on a variant it may not have: every chapter is refused.
        reason = "Not graded: " + variant["refused"]
        notes.append(reason + ".")
        refused = {chapter: reason for chapter in workbook.chapters}
        exercises = {}
    for chapter, paths in getattr(exercises, "conflicts", {}).items():
        if chapter not in refused:
            refused[chapter] = (f"Not graded: the submission holds {len(paths)} exercise files "
                                f"for {chapter} ({', '.join(paths)}), and nothing says which "
                                f"one is yours; hand in one")
            notes.append(f"{chapter}: {refused[chapter]}.")
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
    subjects = {c: os.path.join(workbook.build, workbook.info["subjects"][c]["target"])
                for c in untouched}
    log = os.path.join(work, "build.log")
    infrastructure = None
    deadline = time.monotonic() + options.build_time_limit
    if submitted:
        # The student's code alone, built where it sees nothing of grading (subject_view).
        try:
            built = build_subjects(workbook, work, exercises, submitted, log,
                                   deadline - time.monotonic(), niceness)
        except OSError as e:  # a full disk, say: the machine's, to retry
            built, infrastructure = {}, f"the subjects' build could not be laid out ({e})"
        for chapter, made in built.items():
            if isinstance(made, str):
                subjects[chapter] = made
            elif isinstance(made, sandbox.Outcome) and made.timed_out:
                failed_build[chapter] = f"the build did not finish in " \
                                        f"{options.build_time_limit} s"
            elif isinstance(made, sandbox.Outcome):
                infrastructure = f"the subject's build failed ({made.describe()})"
            else:
                errors, machine = whose_failure(chapter, made[1], made[2])
                if machine:
                    infrastructure = infrastructure or f"{chapter}: {machine} (see build.log)"
                else:
                    failed_build[chapter] = "the exercise file does not compile:\n" + \
                        "\n".join(errors) + (NOT_THERE if "No such file" in made[1] else "")
    if options.gpu:
        infrastructure = infrastructure or build_kernels(
            workbook, dirs, [c for c in submitted if c in subjects], failed_build, log,
            deadline, niceness)
    return Prepared(ident=ident, path=path, directory=directory, work=work, dirs=dirs,
                    notes=notes, refused=refused, variant=variant, failed_build=failed_build,
                    ignored=ignored, untouched=untouched, subjects=subjects,
                    infrastructure=infrastructure,
                    fingerprint=submission.fingerprint(exercises, ignored),
                    build_seconds=time.monotonic() - start)


def build_kernels(workbook, dirs, chapters, failed_build, log, deadline, niceness):
    """The kernels of `chapters` (the exercise and the device probes for the device alone, which
    the pristine judge loads: checks.run_judge), built over the pristine workbook
    with the submission's exercise files laid over it (`dirs`), the hidden checks' source out
    of view. Returns the machine's fault, or None; a chapter that fails is put in
    `failed_build`."""
    for relative in workbook.hidden_sources:
        original = os.path.join(workbook.tree, relative)
        stand_in = os.path.join(dirs["src-upper"], relative)
        os.makedirs(os.path.dirname(stand_in), exist_ok=True)
        with open(stand_in, "w") as f:
            f.write("// Not shown to submissions.\n")
        stat = os.stat(original)
        os.utime(stand_in, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    chown_tree(os.path.dirname(dirs["src-upper"]), workbook.box)
    if not chapters:
        return None
    outcome = workbook.box.run(
        ["python3", f"{pristine.TOOL}/inspect_build.py", pristine.BUILD]
        + [kernels_name(c) for c in chapters] + ["--out", "{report}"], pristine.BUILD, log,
        deadline - time.monotonic(), overlays=overlays(workbook, dirs, True),
        files=pristine.tool_files(), report=True, memory_bytes=BUILD_MEMORY, niceness=niceness)
    try:
        found = json.loads(outcome.report.decode()) if outcome.report else None
    except (ValueError, UnicodeDecodeError):
        found = None
    if outcome.timed_out:
        for chapter in chapters:
            failed_build[chapter] = "the build did not finish in time"
        return None
    if found is None:
        return f"the build of the kernels failed ({outcome.describe()})"
    for chapter in chapters:
        entry = found.get(kernels_name(chapter), {})
        if not entry.get("built"):
            errors, machine = whose_failure(chapter, entry.get("errors", ""), set())
            if machine:
                return f"{chapter}: {machine} (see build.log)"
            failed_build[chapter] = "the exercise file does not compile:\n" + "\n".join(errors)
    return None
