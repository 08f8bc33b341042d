"""A submission laid over the pristine workbook (pristine.py) and built, every command in the
sandbox: the variant it is graded on, its exercise files over the source, the files the compiler
says they read (a file outside the allowed headers refuses the chapter), then only the units
they reach rebuilt and the symbols they define checked against the grader's own.
"""
import json
import os
import subprocess
import time

from . import build_errors, pristine, submission, variants
from .pristine import BUILD_MEMORY, chown_tree, exercise_path

HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")
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
            given = (f"without the course secret (--secret-file) the roster gives every "
                     f"student")
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


def judge_files(workbook, chapter, files):
    """The files a chapter's grader unit reads that the pristine unit does not, and that an
    exercise file may not include: anything but the workbook's headers under its chapter's
    folder and common/, and the system's and the toolkit's headers."""
    baseline = set(workbook.info["deps"][chapter]["files"])
    src = pristine.SRC
    refused = []
    for path in files:
        if path in baseline:
            continue
        if path == f"{src}/{exercise_path(chapter)}":
            continue
        workbook_header = (path.startswith(f"{src}/chapters/{chapter}/")
                           or path.startswith(f"{src}/common/")) and path.endswith(HEADER_SUFFIXES)
        system_header = not path.startswith(os.path.dirname(src) + "/") and "/include/" in path
        if not (workbook_header or system_header):
            shown = path[len(src) + 1:] if path.startswith(src + "/") else path
            refused.append(shown)
    return refused


def whose_failure(workbook, chapter, text):
    """(the compiler's lines for the student, None) where the failed build of `chapter` is the
    student's, or (None, why) where it is the machine's (build_errors.py)."""
    return build_errors.judge(text, chapter, set(workbook.info["deps"][chapter]["files"]),
                              pristine.BUILD, [pristine.SRC, "../src"])


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
        build, tool = pristine.BUILD, pristine.TOOL
        outcome = box.run(["python3", f"{tool}/inspect_build.py", what, build] + chapters
                          + ["--out", "{report}"], build, log, deadline - time.monotonic(),
                          overlays=overlays(workbook, dirs, True), files=pristine.tool_files(),
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
                    errors, machine = whose_failure(workbook, chapter, entry.get("errors", ""))
                    if machine:
                        infrastructure = infrastructure or f"{chapter}: {machine} (see build.log)"
                    else:
                        failed_build[chapter] = "the exercise file does not compile:\n" + \
                            "\n".join(errors)
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
            if outcome.timed_out:
                out_of_time(to_build, failed_build, options)
            elif found is None:
                infrastructure = f"the build failed ({outcome.describe()})"
            else:
                for chapter in to_build:
                    entry = found.get(chapter, {})
                    if not entry.get("built"):
                        errors, machine = whose_failure(workbook, chapter,
                                                        entry.get("errors", ""))
                        if machine:
                            infrastructure = infrastructure or f"{chapter}: {machine} (see " \
                                                               f"build.log)"
                        else:
                            failed_build[chapter] = "the exercise file does not compile:\n" + \
                                "\n".join(errors)
                        continue
                    clashed = clashes(entry["unit"], workbook.info["symbols"][chapter]["others"])
                    if clashed:
                        names = demangle(clashed[:5])
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


def replaceable_allocation_functions():
    """The mangled names of the replaceable global allocation and deallocation functions
    ([replacement.functions]: operator new, new[], delete and delete[] in every form the standard
    lets a program replace), for a size_t of either width. A program that defines one replaces
    the library's everywhere in it: legal C++, and no clash with the library that defines it."""
    nothrow, align = "RKSt9nothrow_t", "St11align_val_t"
    names = set()
    for size in ("m", "j"):
        for kind in ("nw", "na"):
            names.update(f"_Z{kind}{size}{tail}" for tail in
                         ("", nothrow, align, align + nothrow))
        for kind in ("dl", "da"):
            names.update(f"_Z{kind}Pv{tail}" for tail in
                         ("", size, align, size + align, nothrow, align + nothrow))
    return frozenset(names)


REPLACEABLE = replaceable_allocation_functions()


def clashes(unit, others):
    """The symbols a submission's unit defines ({symbol: nm's kind}) that the rest of its
    grader's link or a library it uses defines too (`others`): a grader's function replaced.
    The standard library's template instances and the replaceable allocation functions are no
    clash."""
    protected = set(others)
    return sorted(s for s in unit if s in protected and not library_instance(s, unit[s])
                  and s not in REPLACEABLE)


def demangle(symbols):
    shown = subprocess.run(["c++filt"], input="\n".join(symbols), capture_output=True, text=True)
    names = shown.stdout.split("\n") if shown.returncode == 0 else symbols
    return [n[:120] for n in names[:len(symbols)]]
