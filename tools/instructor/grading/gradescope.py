"""A Gradescope autograder of the workbook (docs/instructors/grading.md, Gradescope): the zip
`tools/instructor/grade --gradescope-autograder` writes (make_package), and what its setup.sh and
run_autograder run in Gradescope's container (setup, run; through
tools/instructor/gradescope_autograder). Gradescope unpacks it to ROOT/source (ROOT is
/autograder, or $AUTOGRADER_ROOT): setup builds the pristine workbook once, into
ROOT/source/pristine/; run grades ROOT/submission (host checks) on the variant of the student
ROOT/submission_metadata.json names, into ROOT/results/results.json, which it always writes: a
grade, a refusal saying why (score 0), or, for a fault of the machine, a result that says "not
graded, to be retried" (not_graded).
"""
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
import zipfile

from . import fallback_sandbox, pristine, runner, sandbox, scoring, submission, variants
from .checks import grade_one
from .prepare import variant_file_of

# Forces a sandbox at run time (CI tests the fallback where namespaces exist): namespace or
# fallback. Only the autograder reads it; the one-machine and Slurm grading never fall back.
SANDBOX_VARIABLE = "WORKBOOK_AUTOGRADER_SANDBOX"
SANDBOXES = ("auto", "fallback")
ID_FIELDS = ("sid", "email")
CONFIG, SECRET, ROSTER = "autograder.json", "course-secret", "roster.csv"
SCRIPTS = ("setup.sh", "run_autograder")
IMAGE = "Dockerfile"  # the package as a Docker image (docs/instructors/grading.md, Gradescope)
TOOL_FILES = ("tools/instructor/gradescope_autograder", "grader/tools/manifest.py",
              "grader/tools/read_variant.py", "grader/tools/record.py")
FORMAT = 1


class NotGraded(Exception):
    """A fault of the machine or of the package: the submission is to be graded again."""


class Refused(Exception):
    """The submission cannot be graded as handed in (no valid student id, not on the roster):
    score 0, saying why."""


class Layout:
    """Gradescope's folders under ROOT, and this autograder's own."""

    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.source = os.path.join(self.root, "source")
        self.config = os.path.join(self.source, CONFIG)
        self.secret = os.path.join(self.source, SECRET)
        self.roster = os.path.join(self.source, ROSTER)
        self.pristine = os.path.join(self.source, "pristine")
        self.tool = os.path.join(self.source, "tool")
        self.submission = os.path.join(self.root, "submission")
        self.metadata = os.path.join(self.root, "submission_metadata.json")
        self.results = os.path.join(self.root, "results")
        self.results_json = os.path.join(self.results, "results.json")
        self.grading = os.path.join(self.root, "grading")
        self.work = os.path.join(self.root, "work")
        self.scratch = os.path.join(self.work, "scratch")
        self.out = os.path.join(self.work, "out")

    def private(self):
        """What the submission's code must neither read nor write."""
        return [self.source, self.results, self.submission, self.metadata, self.work]


def say(text):
    print(text, flush=True)


# The package.

def package_problems(names, chapters):
    """What a package holding the files `names` must not: a solution (anything under solutions/
    but the chosen chapters' hidden checks), a checkout, or a missing part."""
    problems = []
    for name in names:
        parts = name.split("/")
        if ".git" in parts:
            problems.append(f"{name}: a checkout's history")
        if "solutions" in parts:
            at = parts.index("solutions")
            chapter, leaf = (parts + ["", ""])[at + 1:at + 3]
            hidden = leaf.startswith(pristine.HIDDEN_PREFIX) or leaf == pristine.INSTRUCTORS_MANIFEST
            if chapter not in chapters or not hidden or len(parts) != at + 3:
                problems.append(f"{name}: a solution (only the chosen chapters' "
                                f"solutions/NN_slug/{pristine.HIDDEN_PREFIX}* files and the hidden "
                                f"checks' solutions/NN_slug/{pristine.INSTRUCTORS_MANIFEST} may "
                                f"ship)")
    for needed in SCRIPTS + (CONFIG, "tool/tools/instructor/gradescope_autograder"):
        if needed not in names:
            problems.append(f"{needed} is missing")
    return problems


def make_package(zip_path, options, source_root, id_field="sid", sandbox_choice="auto",
                 roster_path=None, secret_path=None, build_jobs=1):
    """Writes the autograder zip at `zip_path`; returns (its names, the config)."""
    if roster_path and not secret_path:
        raise variants.VariantError("--roster needs --secret-file here: on Gradescope a roster "
                                    "only names whose variant is whose (without variants, "
                                    "Gradescope's own roster names the students)")
    roster = [e.student for e in variants.read_roster(roster_path)] if roster_path else None
    secret = variants.read_secret(secret_path) if secret_path else None
    with tempfile.TemporaryDirectory(prefix="gradescope-package-") as cache:
        workbook = pristine.Workbook(cache, None, options, source_root=source_root)
        config = {"format": FORMAT, "commit": workbook.commit, "chapters": workbook.chapters,
                  "gpu_targets": options.gpu_targets, "time_limit": options.time_limit,
                  "build_time_limit": options.build_time_limit,
                  "visibility": options.visibility,
                  "hidden_visibility": options.hidden_visibility, "id_field": id_field,
                  "build_jobs": build_jobs,
                  "sandbox": sandbox_choice,
                  "variants": None if secret is None else ("roster" if roster else "secret"),
                  # for setup.sh: the CUDA libraries the chapters' graders link, to install
                  "cuda_libraries": sorted({m for c in workbook.chapters for m in scoring.manifest
                                            .load(workbook.tree, c).cuda_modules})}
        entries = []  # (name in the zip, bytes, mode)
        tool = [f"tools/instructor/grading/{n}" for n in
                pristine.committed_names(source_root, "tools/instructor/grading")
                if n.endswith(".py")] + list(TOOL_FILES)
        for name, path in [(s, f"tools/instructor/gradescope/{s}") for s in SCRIPTS + (IMAGE,)] \
                + [(f"tool/{path}", path) for path in tool]:
            data = pristine.committed_file(source_root, path)
            if data is None:
                sys.exit(f"grade: {path} is not committed; the package holds the committed tool")
            entries.append((name, data, 0o644 if name.endswith(".py") or name == IMAGE else 0o755))
        tree_root = os.path.relpath(workbook.tree, cache)
        for folder, dirs, files in os.walk(workbook.tree):
            dirs.sort()
            relative = os.path.relpath(folder, workbook.tree)
            parts = relative.split(os.sep)
            if parts[0] == "solutions" and len(parts) > 1 and parts[1] not in workbook.chapters:
                continue
            for name in sorted(files):
                path = os.path.join(folder, name)
                inside = os.path.normpath(os.path.join(relative, name))
                with open(path, "rb") as f:
                    entries.append((f"pristine/{tree_root}/{inside}", f.read(),
                                    os.stat(path).st_mode & 0o777))
        entries.append((CONFIG, (json.dumps(config, indent=2) + "\n").encode(), 0o644))
        if secret is not None:
            entries.append((SECRET, secret + b"\n", 0o600))
        if roster is not None:
            entries.append((ROSTER, ("student\n" + "\n".join(roster) + "\n").encode(), 0o600))
    names = [e[0] for e in entries]
    problems = package_problems(names, config["chapters"])
    if problems:
        sys.exit("grade: the package would hold what it must not, so it was not written:\n  "
                 + "\n  ".join(problems[:20]))
    os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
    partial = zip_path + ".partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(partial, zip_path)
    return names, config


def unpack(zip_path, folder):
    """Unpacks the autograder zip into `folder` as Gradescope does (unzip: the files' modes
    kept). For CI and for trying a package by hand."""
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            target = os.path.join(folder, info.filename)
            if not os.path.realpath(target).startswith(os.path.realpath(folder) + os.sep):
                raise ValueError(f"{info.filename}: outside the folder")
            z.extract(info, folder)
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                os.chmod(target, mode)


# In Gradescope's container.

def read_config(layout):
    try:
        with open(layout.config) as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        raise NotGraded(f"the autograder's {CONFIG} cannot be read ({e}): upload the zip that "
                        f"tools/instructor/grade --gradescope-autograder wrote") from None
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        raise NotGraded(f"{layout.config} is not one this autograder reads (format "
                        f"{config.get('format') if isinstance(config, dict) else '?'})")
    return config


def options_of(config, roster=None):
    return runner.Options(chapters=config["chapters"], gpu_targets=config["gpu_targets"],
                          time_limit=config["time_limit"],
                          build_time_limit=config["build_time_limit"],
                          visibility=config["visibility"],
                          hidden_visibility=config.get("hidden_visibility", "after_due_date"),
                          roster=roster)


def lock_down(layout):
    """The autograder's source, the results, the submission and the work folder: root's only."""
    for folder in (layout.results, layout.work):
        os.makedirs(folder, exist_ok=True)
    for path in layout.private():
        if os.path.isdir(path):
            os.chmod(path, 0o700)
        elif os.path.isfile(path):
            os.chmod(path, 0o600)
        if os.path.exists(path) and os.geteuid() == 0:
            os.chown(path, 0, 0)


def sandbox_kind(config, why_not_namespace):
    """"namespace" or "fallback": the namespace sandbox unless `why_not_namespace()` (asked only
    where it matters) says why it cannot be made, or the package or
    $WORKBOOK_AUTOGRADER_SANDBOX asks for the fallback; $WORKBOOK_AUTOGRADER_SANDBOX=namespace
    never falls back."""
    choice = os.environ.get(SANDBOX_VARIABLE) or config.get("sandbox", "auto")
    if choice not in ("auto", "namespace", "fallback"):
        raise NotGraded(f"${SANDBOX_VARIABLE} is {choice!r}: it may be namespace or fallback")
    if choice == "fallback":
        return "fallback"
    why = why_not_namespace()
    if why is None:
        return "namespace"
    if choice == "namespace":
        raise NotGraded(f"the namespace sandbox cannot be made here: {why}")
    say(f"The namespace sandbox cannot be made here ({why.splitlines()[0][:300]}): the "
        f"fallback sandbox grades instead (docs/instructors/grading.md, Gradescope).")
    return "fallback"


def make_box(layout, config):
    """(the sandbox to grade in, its name): see sandbox_kind."""
    for system in ("/tmp", "/dev", "/proc", "/sys"):
        if sandbox._under(layout.root, [system]):
            raise NotGraded(f"the autograder's root {layout.root} is under {system}, which the "
                            f"sandbox replaces with its own: unpack it elsewhere")
    pristine.show_pristine_at(layout.grading)
    os.makedirs(layout.scratch, exist_ok=True)
    jobs = {"WORKBOOK_BUILD_JOBS": str(config.get("build_jobs", 1))}
    if sandbox_kind(config, lambda: sandbox.unavailable(layout.scratch)) == "namespace":
        box = sandbox.Sandbox(layout.scratch, hide=layout.private())
        box.environment = jobs
        return box, "namespace"
    try:
        box = fallback_sandbox.FallbackSandbox(layout.grading, private=layout.private())
    except fallback_sandbox.FallbackError as e:
        raise NotGraded(f"the fallback sandbox cannot be made here: {e}") from None
    why = box.trial()
    if why:
        box.close()
        raise NotGraded(f"the fallback sandbox cannot grade here: {why}")
    box.environment = jobs
    return box, "fallback"


def prebuilt_workbook(layout, config, box, options):
    try:
        return pristine.Workbook(layout.pristine, box, options, source_root=None,
                               commit=config["commit"])
    except pristine.GradingError as e:
        raise NotGraded(f"{e}: upload the zip that tools/instructor/grade "
                        f"--gradescope-autograder wrote") from None


def setup(root):
    """setup.sh's last step: builds the pristine workbook, once, sandboxed as run_autograder
    grades (both sandboxes show it at the same paths, so either's build serves the other). Exits
    non-zero (Gradescope then shows the image's build as failed) when it cannot."""
    start = time.monotonic()
    layout = Layout(root)
    try:
        lock_down(layout)
        config = read_config(layout)
        box, kind = make_box(layout, config)
    except NotGraded as e:
        sys.exit(f"setup: {e}")
    options = options_of(config)
    say(f"setup: the pristine workbook of {config['commit'][:12]} ({len(config['chapters'])} "
        f"chapters, GPU target {config['gpu_targets']}), built in the {kind} sandbox")
    try:
        workbook = prebuilt_workbook(layout, config, box, options)
        workbook.ensure_built(progress=say)
    except (NotGraded, pristine.GradingError) as e:
        sys.exit(f"setup: {e}")
    finally:
        if kind == "fallback":
            box.close()
    say(f"setup: the pristine workbook is built ({time.monotonic() - start:.0f} s): "
        f"{workbook.build}")


def student_of(layout, field, with_variants):
    """{id: name} of the submitters, in Gradescope's order: the ids run_autograder names the
    submission and its variant by, each submitter's `field` (sid or email) in Gradescope's
    metadata checked as a student id (a group submission has several: student_in_group says
    whose variant it is graded on). Without variants a missing or bad id only leaves the
    submission unnamed ({})."""
    try:
        with open(layout.metadata, encoding="utf-8") as f:
            metadata = json.load(f)
        users = metadata.get("users") if isinstance(metadata, dict) else None
        if not isinstance(users, list) or not users or not all(isinstance(u, dict)
                                                              for u in users):
            raise Refused(f"Gradescope's metadata names no submitter (its \"users\" list is "
                          f"{'missing' if not isinstance(users, list) else 'empty or damaged'})")
        ids = {}
        for user in users:
            value = user.get(field)
            who = user.get("name") or user.get("email") or "a submitter"
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str) or not value.strip():
                raise Refused(f"Gradescope's metadata has no {field} for {str(who)[:60]}: the "
                              f"variant is derived from it (add the student id to the course "
                              f"roster on Gradescope, then regrade)")
            student = variants.check_student(value.strip(), f"Gradescope's {field}")
            ids[student] = str(user.get("name") or "")[:200]
        return ids
    except FileNotFoundError:
        error = NotGraded(f"{layout.metadata} is missing (Gradescope writes it for every "
                          f"submission): without it the student, and so the variant, is unknown")
    except (OSError, ValueError) as e:
        error = NotGraded(f"{layout.metadata} cannot be read ({e})")
    except variants.VariantError as e:
        error = Refused(str(e))
    except Refused as e:
        error = e
    if with_variants:
        raise error from None
    return {}


def student_in_group(ids, files):
    """The member of a group submission whose variant it is graded on: the one its VARIANT file
    names (each student's workbook has their own)."""
    if len(ids) == 1:
        return ids[0]
    stamp = variant_file_of(files)
    named = None
    if stamp is not None:
        try:
            named = variants.parse_variant_file(stamp)[0]
        except variants.VariantError:
            pass
    if named in ids:
        return named
    raise Refused(f"a group submission ({', '.join(ids)}): with variants each student's workbook "
                  f"is their own, and this one's VARIANT file names "
                  f"{named or 'none of them'}")


def submitter_roster(student, secret, name=""):
    """The roster of the one student Gradescope names, with their variant under the course
    secret (what prepare.decide_variant asks of a roster)."""
    return variants.Roster("Gradescope's metadata", [variants.RosterEntry(student, name, None, 1)],
                           secret)


def submission_path(layout):
    """What run_autograder grades: ROOT/submission, or the one archive it holds."""
    if not os.path.isdir(layout.submission):
        raise NotGraded(f"{layout.submission} is missing: Gradescope puts the submission there")
    names = [n for n in os.listdir(layout.submission) if not n.startswith(".")]
    if len(names) == 1 and names[0].endswith(submission.ARCHIVES) and \
            os.path.isfile(os.path.join(layout.submission, names[0])):
        return os.path.join(layout.submission, names[0])
    return layout.submission


def chapter_points(layout, config):
    """{chapter: its checks} of the package's pristine workbook, or {} where it is damaged."""
    tree = os.path.join(layout.pristine, f"workbook-{config['commit'][:12]}", "workbook")
    try:
        return {c: scoring.load_points(tree, c) for c in config["chapters"]}
    except (OSError, scoring.PointsError, KeyError):
        return {}


def not_graded(reason, retry, points, student, seconds, visibility="visible"):
    """The results.json of a submission that was not graded: every check at 0 with the reason.
    With `retry` (a fault of the machine) its first test says "NOT GRADED, to be retried":
    Gradescope has no such state, so the score 0 comes with words nobody can take for a grade,
    and extra_data marks it for the course staff's tools."""
    tests = []
    for chapter, checks in points.items():
        tests += scoring.score_chapter(chapter, checks, ["host"], {"host": None},
                                       {"host": "not graded: " + reason})
    result = {"submission": student or "submission", "mode": "host", "variant": 0,
              "notes": [], "ignored": [], "tests": tests, "score": 0,
              "max_score": sum(t["max_score"] for t in tests), "seconds": seconds}
    data = scoring.gradescope(result, visibility)
    if retry:
        data["output"] = (f"NOT GRADED, to be retried: {reason}.\nThis is a fault of the grading "
                          f"machine, not of your work: the score 0 is not a grade. The course "
                          f"staff run the autograder on this submission again.")
        marker = {"name": "NOT GRADED: to be retried (a fault of the grading machine, not of "
                          "this submission)", "score": 0, "max_score": 0, "status": "failed",
                  "output": reason, "visibility": "visible", "number": "0"}
        data["tests"].insert(0, marker)
    else:
        data["output"] = f"Not graded: {reason}."
    data["visibility"] = "visible"
    data["extra_data"] = {"not_graded": True, "retry": retry, "reason": reason}
    return data


def write_results(layout, data):
    os.makedirs(layout.results, exist_ok=True)
    scoring.write_atomically(layout.results_json, json.dumps(data, indent=2) + "\n")


def tail(path, lines=60):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


def run(root):
    """run_autograder: grades ROOT/submission into ROOT/results/results.json, which it always
    writes (its first act is a "not graded, to be retried" one, replaced at the end). What the
    course staff need to see goes to the standard output, which Gradescope shows only them."""
    start = time.monotonic()
    layout = Layout(root)
    placeholder = not_graded("the autograder stopped before it finished (killed, out of memory "
                             "or out of time)", True, {}, None, 0)
    try:
        write_results(layout, placeholder)
    except OSError as e:
        say(f"run_autograder: cannot write {layout.results_json}: {e}")
        return 1
    points, boxes = {}, []
    try:
        lock_down(layout)
        config = read_config(layout)
        points = chapter_points(layout, config)
        data = grade(layout, config, boxes)
    except (Refused, NotGraded) as e:
        data = not_graded(str(e), isinstance(e, NotGraded), points, None, time.monotonic() - start)
    except Exception as e:  # noqa: BLE001 (whatever went wrong: never a trace for the student)
        say("run_autograder: the autograder failed:\n" + traceback.format_exc())
        data = not_graded(f"the autograder failed ({type(e).__name__}: {str(e)[:300]})", True,
                          points, None, time.monotonic() - start)
    finally:
        for box in boxes:
            if isinstance(box, fallback_sandbox.FallbackSandbox):
                box.close()
    problems = scoring.validate_gradescope(data)
    if problems:
        say("run_autograder: the results did not validate: " + "; ".join(problems))
        data = not_graded("the autograder wrote results Gradescope would not read", True, {},
                          None, time.monotonic() - start)
    write_results(layout, data)
    say(f"run_autograder: {data['score']} points, {time.monotonic() - start:.1f} s: "
        + data["output"].splitlines()[0])
    return 0


def grade(layout, config, boxes):
    """The results.json of the submission; the sandbox it is graded in is added to `boxes`."""
    with_variants = config.get("variants") is not None
    ids = student_of(layout, config.get("id_field", "sid"), with_variants)
    path = submission_path(layout)
    roster = None
    if with_variants:
        try:
            files = submission.read_files(path)
        except submission.SubmissionError:
            files = {}
        student = student_in_group(list(ids), files)
        if config["variants"] == "roster":
            try:
                listed = [e.student for e in variants.read_roster(layout.roster)]
            except variants.VariantError as e:
                raise NotGraded(f"the package's roster cannot be read: {e}") from None
            if student not in listed:
                raise Refused(f"{student} is not on the roster this autograder was made with: "
                              f"the course staff add them to it and upload a new autograder, "
                              f"or grade them with tools/instructor/grade")
        try:
            secret = variants.read_secret(layout.secret, "the package's course secret")
        except variants.VariantError as e:
            raise NotGraded(str(e)) from None
        roster = submitter_roster(student, secret, ids[student])
    else:
        student = "+".join(ids) if ids else "submission"
    for folder in (layout.scratch, layout.out, layout.grading):
        shutil.rmtree(folder, ignore_errors=True)
    box, kind = make_box(layout, config)
    boxes.append(box)
    options = options_of(config, roster)
    workbook = prebuilt_workbook(layout, config, box, options)
    if not os.path.isfile(os.path.join(workbook.build_root, "info.json")):
        raise NotGraded("the pristine workbook was not built (setup.sh did not finish)")
    workbook.ensure_built()
    runner.SCRATCH[0] = layout.scratch
    say(f"run_autograder: grading {student} ({path}) in the {kind} sandbox, workbook "
        f"{config['commit'][:12]}, chapters {', '.join(config['chapters'])}")
    result = grade_one(workbook, path, layout.out, options, ident=student)
    for name in ("build.log", "run.log"):
        text = tail(os.path.join(layout.out, name))
        if text:
            say(f"---- the end of {name} ----\n{text}")
    if not result["complete"]:
        raise NotGraded(result["error"])
    if roster is not None:
        result["variant_source"] = "Gradescope's student id and the course secret"
    data = scoring.gradescope(result, config["visibility"])
    data["extra_data"] = {"student": result["student"] or student,
                          "name": result.get("name") or "",
                          "variant": result["variant"], "workbook": config["commit"],
                          "sandbox": kind, "max_score": result["max_score"]}
    return data
