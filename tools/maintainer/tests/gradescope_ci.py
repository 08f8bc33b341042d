#!/usr/bin/env python3
"""The Gradescope autograder end to end, without a GPU (CI), in a scratch copy of Gradescope's
folders: the package of the workbook's first two chapters with a roster and a course secret,
unpacked as Gradescope unpacks it; its setup.sh (which must find the toolchain and install
nothing); then its run_autograder for each of these submissions, every results.json validated:

- the reference solutions on the student's own variant (its VARIANT file agreeing): full host
  marks, in the forced fallback sandbox and in the namespace sandbox;
- the untouched skeletons (an archive in the submission folder): 0;
- a classmate's workbook (a VARIANT file that disagrees with the metadata's student): refused,
  saying why; an archive that cannot be read: graded as the skeleton, saying why;
- bad metadata (missing, no student id, an id that is none, a student not on the roster): a
  results.json that says so, score 0, nothing graded;
- hostile_class.py's hostile class, one submission a run, as Gradescope grades them: through the
  fallback sandbox (and, for what only the namespace sandbox hides, the namespace sandbox),
  with a probe of every path a grader must not write besides: each scores what it earned and is
  graded (never "to be retried" for its own code), nothing it touched changes, nothing of it is
  left running.

A package of every chapter is also written (not built): it must hold each chapter's hidden
checks, and no solution.

    gradescope_ci.py SOURCE_ROOT WORKDIR [--again]

--again reuses WORKDIR's autograder from an earlier run (its package, built workbook and course
secret) and runs the submissions only: for trying a change made to the unpacked tool in
WORKDIR/autograder/source/tool/.
"""
import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import zipfile

root = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
if work == "/tmp" or work.startswith("/tmp/"):
    # Every sandbox has a /tmp of its own, so Gradescope's folders (/autograder there) cannot
    # live under this machine's: a checkout under /tmp (CI's clone, say) works in /var/tmp.
    work = os.path.join("/var/tmp", "workbook-gradescope-ci", os.path.basename(work))
again = "--again" in sys.argv[3:]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grading import (fallback_sandbox, gradescope, pristine, scoring, submission,  # noqa: E402
                     variants)
import hostile_class  # noqa: E402
from hostile_class import put  # noqa: E402
from run_gpu_grading import exercise_file  # noqa: E402

tool = os.path.join(root, "tools", "instructor", "grade")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, failures as problems  # noqa: E402
started = time.monotonic()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def digest(path):
    return hashlib.sha256(read(path)).hexdigest()


chapters = scoring.manifest.chapters(root)
graded = chapters[:2]
first, second = graded
hidden_marker = "GRADESCOPE-CI-HIDDEN-SOURCE-MARKER"
layout = gradescope.Layout(os.path.join(work, "autograder"))
environment = dict(os.environ, AUTOGRADER_ROOT=layout.root,
                   GRADING_CI_SECRET="GRADESCOPE-CI-SECRET-IN-THE-ENVIRONMENT")
setup_seconds = 0.0


def hidden_source_of(layout):
    """The first chapter's hidden checks in the unpacked package."""
    with open(layout.config) as f:
        commit = json.load(f)["commit"]
    return os.path.join(layout.pristine, f"workbook-{commit[:12]}", "workbook", "solutions",
                        first, "hidden_checks.cpp")


if not again:
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # 1. A package of every chapter, written only: each chapter's hidden checks and no solution.
    everything = os.path.join(work, "every-chapter.zip")
    made = subprocess.run([sys.executable, tool, "--gradescope-autograder", everything],
                          capture_output=True, text=True)
    expect(made.returncode == 0, f"the package of every chapter: {made.stderr[-800:]}")
    if made.returncode == 0:
        with zipfile.ZipFile(everything) as z:
            names = z.namelist()
        shipped = sorted(n.split("/workbook/", 1)[1] for n in names
                         if "/workbook/solutions/" in n)
        committed = sorted(f"solutions/{c}/{n}" for c in chapters
                           for n in pristine.committed_names(root, f"solutions/{c}")
                           if n.startswith(pristine.HIDDEN_PREFIX)
                           or n == pristine.INSTRUCTORS_MANIFEST)
        expect(shipped == committed, f"the package holds every chapter's hidden checks (and "
                                     f"their manifest) and nothing else of solutions/: "
                                     f"{sorted(set(shipped) ^ set(committed))}")
        expect(gradescope.package_problems(names, chapters) == [],
               f"the package's own check: {gradescope.package_problems(names, chapters)[:5]}")
        expect(gradescope.SECRET not in names and gradescope.ROSTER not in names,
               "a package without variants holds no secret and no roster")
        with zipfile.ZipFile(everything) as z:
            libraries = json.loads(z.read(gradescope.CONFIG))["cuda_libraries"]
        expect(libraries == ["cublas", "cublasLt"], f"setup.sh installs cuBLAS for the chapters "
                                                    f"that link it: {libraries}")

    # 2. The package CI grades: two chapters, a roster and a course secret.
    here = os.path.join(work, "course")
    os.makedirs(here)
    secret_file = os.path.join(here, "course-secret")
    put(secret_file, base64.b64encode(os.urandom(32)) + b"\n")
    secret = variants.read_secret(secret_file)
    roster_file = os.path.join(here, "roster.csv")
    put(roster_file, b"student,name\nada,Ada L.\nbo,Bo P.\n")
    package = os.path.join(work, "autograder.zip")
    made = subprocess.run([sys.executable, tool, "--gradescope-autograder", package,
                           "--chapters", ",".join(graded), "--roster", roster_file,
                           "--secret-file", secret_file, "--time-limit", "120"],
                          capture_output=True, text=True)
    expect(made.returncode == 0, f"the package: {made.stderr[-800:]}")
    with zipfile.ZipFile(package) as z:
        expect(json.loads(z.read(gradescope.CONFIG))["cuda_libraries"] == [],
               "a package of chapters that link no CUDA library installs none")
    for bad, said in (([], "--roster needs --secret-file"),
                      (["--gradescope-id", "login"], "invalid choice"),
                      (["--out", work], "takes no --out")):
        command = [sys.executable, tool, "--gradescope-autograder",
                   os.path.join(work, "bad.zip"), "--roster", roster_file] + bad + \
            (["--secret-file", secret_file] if bad else [])
        refused = subprocess.run(command, capture_output=True, text=True)
        expect(refused.returncode != 0 and said in refused.stderr
               and not os.path.exists(os.path.join(work, "bad.zip")),
               f"a bad package command is refused, saying {said!r}: {refused.stderr[-300:]}")

    # Gradescope's folders, in a scratch copy.
    os.makedirs(layout.source)
    gradescope.unpack(package, layout.source)
    with open(hidden_source_of(layout), "a") as f:  # a comment the build ignores, for leaks
        f.write(f"\n// {hidden_marker}\n")
    start = time.monotonic()
    setup = subprocess.run(["bash", os.path.join(layout.source, "setup.sh")], env=environment,
                           capture_output=True, text=True, timeout=1800)
    setup_seconds = time.monotonic() - start
    print(setup.stdout[-3000:] + setup.stderr[-3000:], flush=True)
    expect(setup.returncode == 0, f"setup.sh failed: {setup.stdout[-1500:]}{setup.stderr[-1500:]}")
    expect("installing" not in setup.stdout and "from PyPI" not in setup.stdout
           and "CUDA toolkit" not in setup.stdout,
           f"setup.sh found the toolchain installed and installed nothing: {setup.stdout[-500:]}")
secret = variants.read_secret(layout.secret)
hidden_source = hidden_source_of(layout)
expect(hidden_marker in read(hidden_source).decode(), "the hidden checks carry CI's marker")
builds = [os.path.join(layout.pristine, d, "build") for d in os.listdir(layout.pristine)
          if d.startswith("build-") and os.path.isdir(os.path.join(layout.pristine, d))]
graders = {c: os.path.join(builds[0], pristine.grader_name(c)) for c in graded} if builds else {}
before = {c: digest(p) for c, p in graders.items() if os.path.isfile(p)}
expect(len(before) == 2, f"setup.sh built both graders: {graders}")
kept = {p: digest(p) for p in (layout.config, layout.secret, hidden_source)}


def total_memory(pid):
    """The resident memory of `pid` and every process below it, in KiB."""
    children, rss = {}, {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(name))
                rss[int(name)] = int(fields[21]) * 4
            except (OSError, IndexError, ValueError):
                pass
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total


measured = []


def gradescope_run(name, files=None, metadata=None, sandbox="fallback", source=None):
    """run_autograder on one submission, as Gradescope runs it: `files` {path: bytes} in
    ROOT/submission (an archive alone there, or a tree), or `source`, a folder whose files or an
    archive that is copied there; `metadata` the users' list (None: no metadata file). Returns
    its results.json (or None)."""
    for path in (layout.submission, layout.results):
        shutil.rmtree(path, ignore_errors=True)
    os.makedirs(layout.submission)
    os.makedirs(layout.results)
    if os.path.exists(layout.metadata):
        os.remove(layout.metadata)
    for path, data in (files or {}).items():
        put(os.path.join(layout.submission, path), data)
    if source and os.path.isdir(source):
        shutil.copytree(source, layout.submission, dirs_exist_ok=True)
    elif source:
        shutil.copy(source, layout.submission)
    if metadata is not None:
        put(layout.metadata, json.dumps({"id": 1, "created_at": "2025-01-01T00:00:00+00:00",
                                         "assignment": {"id": 1, "title": "workbook"},
                                         "submission_method": "upload", "users": metadata,
                                         "previous_submissions": []}).encode())
    shutil.copyfile(os.path.join(layout.source, "run_autograder"),
                    os.path.join(layout.root, "run_autograder"))
    os.chmod(os.path.join(layout.root, "run_autograder"), 0o755)
    env = {**environment, gradescope.SANDBOX_VARIABLE: sandbox}
    start = time.monotonic()
    # /usr/bin/time, where it is installed, measures the largest process (a compiler, mostly);
    # the sampler below adds up every process of the run, a bound on the container's need.
    timer = ["/usr/bin/time", "-f", "largest process: %M KiB, CPU %U %S s", "-o",
             os.path.join(work, "time")] if os.access("/usr/bin/time", os.X_OK) else []
    process = subprocess.Popen(timer + [os.path.join(layout.root, "run_autograder")],
                               cwd=layout.root, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    peak = [0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], total_memory(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output = process.stdout.read().decode("utf-8", "replace")
    process.wait()
    sampler.join()
    seconds = time.monotonic() - start
    largest, cpu = 0, ""
    if timer:
        with open(timer[-1]) as f:
            said = f.read().split("largest process: ")[-1].split()
        largest = int(said[0])
        cpu = f", CPU {float(said[3]) + float(said[4]):.1f} s"
    measured.append((name, seconds, largest, peak[0]))
    print(f"---- {name}: {seconds:.1f} s{cpu}, largest process {largest // 1024} MiB, all "
          f"together {peak[0] // 1024} MiB\n{output[-2500:]}", flush=True)
    expect(process.returncode == 0, f"{name}: run_autograder exited {process.returncode}")
    try:
        with open(layout.results_json) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        expect(False, f"{name}: no results.json ({e})")
        return None
    expect(scoring.validate_gradescope(results) == [],
           f"{name}: results.json: {scoring.validate_gradescope(results)}")
    expect("Traceback" not in json.dumps(results), f"{name}: a stack trace in results.json")
    return results


def tree_of(folder, stamp=None):
    files = {f"workbook/chapters/{c}/{c[3:]}_exercise.cu": exercise_file(root, folder, c)
             for c in graded}
    files["workbook/notes.txt"] = b"my notes\n"
    if stamp:
        files["workbook/VARIANT"] = variants.variant_file(*stamp).encode()
    return files


def user(sid, email="student@example.edu", **fields):
    entry = {"email": email, "id": 1234, "name": "A Student", "sid": sid}
    entry.update(fields)
    return [entry]


def output_of(results):
    return (results or {}).get("output", "") + "\n" + "\n".join(
        t.get("output", "") for t in (results or {}).get("tests", []))


points = {c: scoring.load_points(root, c) for c in graded}
host_total = sum(p.points for c in graded for p in points[c] if p.mode == "host")
first_full = sum(p.points for p in points[first] if p.mode == "host")
va, vb = variants.derive(secret, "ada"), variants.derive(secret, "bo")

# 3. The reference, on ada's own variant (her VARIANT file agreeing): full host marks, in both
# sandboxes.
for kind in ("fallback", "namespace"):
    results = gradescope_run(f"reference ({kind})", tree_of("solutions", ("ada", va)),
                             metadata=user("ada"), sandbox=kind)
    if results:
        expect(results["score"] == host_total,
               f"the reference in the {kind} sandbox: {results['score']} of {host_total}")
        expect(f"graded on variant {va}" in results["output"],
               f"the reference names ada's variant: {results['output'][:300]}")
        expect(results.get("extra_data", {}).get("sandbox") == kind,
               f"graded in the {kind} sandbox: {results.get('extra_data')}")
        expect(sum(t["max_score"] for t in results["tests"]) == host_total,
               f"every host check of {', '.join(graded)} is listed")
        expect(any("hidden" in t.get("tags", []) for t in results["tests"]),
               "the hidden checks ran, tagged hidden")
        expect("notes.txt" in results["output"], "a file outside the exercises is listed")

# The untouched skeletons, as one archive in the submission folder: 0, each check saying why.
skeleton_zip = io.BytesIO()
with zipfile.ZipFile(skeleton_zip, "w") as z:
    for c in graded:
        z.writestr(f"workbook/chapters/{c}/{c[3:]}_exercise.cu", exercise_file(root, "chapters", c))
results = gradescope_run("skeleton", {"workbook.zip": skeleton_zip.getvalue()},
                         metadata=user("bo"))
if results:
    expect(results["score"] == 0 and len(results["tests"]) == len(
        [p for c in graded for p in points[c] if p.mode == "host"]),
        f"the skeletons score 0 on every host check: {results['score']}")
    expect(all(t["status"] == "failed" and t["output"] for t in results["tests"]
               if t["max_score"] > 0), "each failed check says what it found")
    expect(f"graded on variant {vb}" in results["output"], "the skeleton is bo's variant")

# A classmate's workbook, handed in by bo: refused, saying why.
results = gradescope_run("bo hands in ada's workbook", tree_of("solutions", ("ada", va)),
                         metadata=user("bo"))
expect(results and results["score"] == 0 and "is ada's, but it was handed in as bo"
       in output_of(results), f"ada's workbook handed in by bo is refused: "
                              f"{output_of(results)[:300]}")
results = gradescope_run("an archive that cannot be read",
                         {"workbook.zip": b"PK\x03\x04" + bytes(range(256))},
                         metadata=user("ada"))
expect(results and results["score"] == 0 and "could not be read" in results["output"],
       f"an archive that cannot be read is graded as the skeleton, saying why: "
       f"{(results or {}).get('output', '')[:300]}")

# Bad metadata: a results.json that says so, score 0, nothing graded.
for name, metadata, said, retry in (
        ("no metadata file", None, "submission_metadata.json is missing", True),
        ("no student id", user(None), "has no sid", False),
        ("not a student id", user("bad id!"), "is not a student id", False),
        ("not on the roster", user("zed"), "zed is not on the roster", False),
        ("no submitter", [], "names no submitter", False)):
    start = time.monotonic()
    results = gradescope_run(name, tree_of("solutions"), metadata=metadata)
    expect(results and results["score"] == 0 and said in results["output"]
           and results.get("extra_data", {}).get("retry") is retry
           and ("to be retried" in results["output"]) is retry,
           f"{name}: says {said!r} (retry: {retry}): {(results or {}).get('output', '')[:300]}")
    expect(time.monotonic() - start < 30, f"{name}: refused before any build")
# The id Gradescope names a student by: sid, or email where the package says so.
put(layout.metadata, json.dumps({"users": user("ada", email="ada@example.edu")}).encode())
expect(list(gradescope.student_of(layout, "email", True)) == ["ada@example.edu"]
       and list(gradescope.student_of(layout, "sid", True)) == ["ada"],
       "the id field is the package's")

# 4. The hostile class (hostile_class.py), one submission a run: in the fallback sandbox, and
# what only the namespace sandbox hides in that one.
grading_build = os.path.join(layout.grading, "build")
secrets = {
    "readable": [layout.secret, hidden_source, layout.config, layout.metadata],
    "writable": [layout.results_json, os.path.join(grading_build, pristine.grader_name(second)),
                 os.path.join(grading_build, pristine.grader_name(first)), layout.config,
                 os.path.join(layout.root, "run_autograder")]
    + ([graders[second]] if second in graders else []),  # where an earlier step built it
    "markers": [secret.decode(), hidden_marker, "GRADESCOPE-CI-SECRET-IN-THE-ENVIRONMENT"],
    "paths": [os.path.join(root, "tools"), layout.source],  # the sandbox's view never shows
}
planted_folder = os.path.join(work, "planted")
first_checks = [p.name for p in points[first] if p.mode == "host"]
cases = hostile_class.write(root, planted_folder, first, secrets, first_checks,
                           grading=layout.grading)
# hostile_class's vandal writes blindly, and the graders run in no fixed order: this probe
# tries every path a grader must not write (a new file in the results and the build too) and
# says in its feedback each one it could open, whichever grader ran first (it is called, and
# wrong, for one pattern: the check's feedback shows what it wrote to std::cout).
probed = secrets["writable"] + [os.path.join(layout.results, "probe"),
                                os.path.join(grading_build, "probe"),
                                os.path.join(layout.grading, "src", "grader", "harness",
                                             "feedback_message.hpp")]
probe = ("  if (c.pattern == Pattern::kReversedFloats) {  // wrong for it: its feedback shows\n"
         "    for (const char* path : {" + ", ".join(f'"{p}"' for p in probed) + "}) {\n"
         "      int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);\n"
         '      if (fd >= 0) { std::cout << "WROTE: " << path << "\\n"; close(fd); }\n'
         f'    }}\n    std::cout << "PROBE: tried {len(probed)} paths\\n";\n    return 0;\n  }}')
put(os.path.join(planted_folder, "write_probe", "chapters", first, f"{first[3:]}_exercise.cu"),
    hostile_class.in_prediction(hostile_class.HEADER + exercise_file(root, "solutions", first),
                                probe))
cases["write_probe"] = hostile_class.Case(4, "opens for writing the results, every grader and "
                                             "the package, saying which it could", "less",
                                          says=[f"PROBE: tried {len(probed)} paths"],
                                          never=["WROTE:"])
# The time limit of those that hang, shortened for their runs (the package's is 120 s).
waiting = {"sleeps_past_time_limit", "signal_stop_everything"}
paths = {submission.submission_id(os.path.join(planted_folder, n)):
         os.path.join(planted_folder, n) for n in os.listdir(planted_folder)}
config_bytes = read(layout.config)
hang_config = (json.dumps(dict(json.loads(config_bytes), time_limit=10), indent=2) + "\n").encode()
judged, logs = {}, {}
for ident, case in sorted(cases.items()):
    kind = "namespace" if case.kind == "namespace" else "fallback"
    if ident in waiting:
        put(layout.config, hang_config)
    try:
        results = gradescope_run(f"hostile: {ident} ({kind})", source=paths[ident],
                                 metadata=user("ada"), sandbox=kind)
    finally:
        if ident in waiting:
            put(layout.config, config_bytes)
    if results is None:
        continue
    if os.path.isfile(os.path.join(layout.out, "run.log")):  # what its graders printed
        logs[ident] = read(os.path.join(layout.out, "run.log")).decode("utf-8", "replace")
    if ident == "survivor_fork_setsid":
        time.sleep(3)  # long enough for a survivor to act
        with open(layout.results_json) as f:
            expect(json.load(f) == results, "results.json changed after run_autograder ended")
    first_tests = [t for t in results["tests"] if first in t.get("tags", [])]
    judged[ident] = {"score": sum(t["score"] for t in first_tests),
                     "complete": not results.get("extra_data", {}).get("retry"),
                     "error": results["output"].splitlines()[0],
                     "notes": results["output"].splitlines(), "ignored": [],
                     "tests": [{"output": t.get("output", "")} for t in results["tests"]]}
    # Chapter 02's grader still reports (nothing replaced it), unless the time limit ran out
    # in chapter 01's first (the fallback sandbox runs one grader after the other).
    expect(all("\nno result:" not in "\n" + t.get("output", "") or "time limit" in t["output"]
               for t in results["tests"] if second in t.get("tags", [])),
           f"{ident}: chapter {second}'s grader still reported (nothing replaced it)")
    # A uid another autograder of this machine holds now is its own, not one this run left.
    left = hostile_class.leftover_processes(r"sleep 4242") + [
        f"uid {u}" for u in range(fallback_sandbox.FIRST_UID, fallback_sandbox.FIRST_UID + 8)
        if fallback_sandbox.processes_of(u) and not fallback_sandbox.uid_claimed(u)]
    expect(not left, f"{ident}: processes left behind: {left}")
for problem in hostile_class.judge(cases, judged, first_full, logs):
    expect(False, "Gradescope: " + problem)
after = {c: digest(p) for c, p in graders.items() if os.path.isfile(p)}
expect(after == before, "the pristine graders are unchanged")
expect({p: digest(p) for p in kept} == kept,
       "the package's config, course secret and hidden checks are unchanged")

if problems:
    print(f"\ngradescope_ci.py: {len(problems)} problem(s)")
    sys.exit(1)
slowest = max(measured, key=lambda m: m[1])
largest = max(measured, key=lambda m: m[3])
print("gradescope: " + ("(again, on the earlier package and setup) " if again else
                         f"the package of every chapter holds its hidden checks and no "
                         f"solution; setup.sh installed nothing and built {', '.join(graded)} "
                         f"in {setup_seconds:.0f} s; ") +
      f"{len(measured)} submissions through run_autograder (reference full in both sandboxes, "
      f"skeleton 0, a classmate's workbook and 5 bad metadata refused, a hostile class of "
      f"{len(judged)} each scoring what it earned), the slowest {slowest[1]:.0f} s "
      f"({slowest[0]}), "
      f"the most memory {largest[3] // 1024} MiB ({largest[0]}); "
      f"{time.monotonic() - started:.0f} s in all")
