"""Runs inside a grading sandbox, in a build of the workbook, and writes what it finds as JSON to
the file named by --out (the sandbox's report pipe):

    inspect_build.py deps BUILD CHAPTER...     generates each chapter's grader unit, then asks the
                                               compiler which files it reads (nvcc -M, host and
                                               device passes, into a file of its own: -MF):
                                               {chapter: {"status", "files", "errors"}}
    inspect_build.py pristine BUILD CHAPTER... both, for the pristine workbook
    inspect_build.py symbols BUILD CHAPTER...  builds each chapter's grader, then lists the
                                               symbols its unit defines and, for the pristine
                                               workbook, those the rest of its link defines
                                               (nm): {chapter: {"status", "built", "unit",
                                               "others", "errors"}}, "errors" what the build
                                               printed about the chapter's targets

Nothing here judges anything: the grading tool does, outside the sandbox.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading

OUTPUT_BYTES = 1 << 20
# How many compilers run at once, where the sandbox says (a Gradescope container of 768 MB holds
# one nvcc, not ninja's default of one per CPU it sees, plus two; nor a scan per CPU).
JOBS = ["-j", os.environ["WORKBOOK_BUILD_JOBS"]] \
    if os.environ.get("WORKBOOK_BUILD_JOBS", "").isdigit() else []


def workers():
    """How many scans run at once: WORKBOOK_BUILD_JOBS where the sandbox says, else one per CPU."""
    return max(1, int(JOBS[1]) if JOBS else os.cpu_count() or 1)


def run(command, cwd, show=False):
    """(status, output) of `command`; with `show`, its output goes to the build log too."""
    done = subprocess.run(command, cwd=cwd, capture_output=True)
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if show:
        sys.stdout.write(text[-OUTPUT_BYTES:])
        sys.stdout.flush()
    return done.returncode, text[-OUTPUT_BYTES:]


def up_to_date(build, target):
    """Whether ninja has nothing left to do for `target` (a failed build leaves work to do, and
    the pristine workbook's files, seen under a submission's, must not pass for its own)."""
    status, text = run(["ninja", "-C", build, "-n", target], build)
    return status == 0 and "no work to do" in text


def unit_of(chapter):
    return f"ch{chapter[:2]}_grader_unit.cu"


def grader_of(chapter):
    return f"ch{chapter[:2]}_{chapter[3:]}_grader"


def compile_command(build, chapter):
    """The compiler's command for a chapter's grader unit, from meson's compile_commands.json."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        for entry in json.load(f):
            if entry["file"].endswith(unit_of(chapter)):
                return shlex.split(entry["command"]), entry["directory"]
    raise SystemExit(f"no compile command for {unit_of(chapter)}")


def make_prerequisites(text):
    """The prerequisites of the one rule in a make dependency file (what nvcc -M writes)."""
    tokens = re.findall(r"(?:\\.|[^\s\\])+", text.replace("\\\n", " "))
    words = [re.sub(r"\\(.)", r"\1", t).replace("$$", "$") for t in tokens]
    colon = next((i for i, w in enumerate(words) if w.endswith(":")), None)
    return words[colon + 1:] if colon is not None else []


def scan(build, chapter):
    """What the compiler says a chapter's grader unit reads: (status, files, output). The list is
    read from the file nvcc -M writes (-MF), never from what it prints: a `#warning` or a
    `#pragma message` of the exercise goes to its output."""
    command, directory = compile_command(build, chapter)
    kept, skip = [], False
    for arg in command:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg != "-c":
            kept.append(arg)
    handle, listing = tempfile.mkstemp(suffix=".d")
    os.close(handle)
    try:
        code, text = run(kept + ["-M", "-MF", listing, "-MT", "unit"], directory)
        with open(listing, errors="surrogateescape") as f:
            written = f.read()
    finally:
        os.remove(listing)
    files = []
    if code == 0:
        files = [os.path.normpath(os.path.join(directory, p))
                 for p in make_prerequisites(written)]
    return code, sorted(set(files)), text


STEP = re.compile(r"\[\d+/\d+\] |FAILED: |ninja: ")


def about(output, names):
    """{name: what ninja's `output` says about the targets whose names hold `name`}: each step's
    lines (its status line, or its FAILED line and command, then what it printed) go to the names
    its first lines hold, and ninja's own lines (its errors) to every name."""
    steps, current = [], []
    for line in output.splitlines(keepends=True):
        if STEP.match(line) and current:
            steps.append(current)
            current = []
        current.append(line)
    if current:
        steps.append(current)
    parts = {name: [] for name in names}
    for step in steps:
        heading = "".join(step[:2] if step[0].startswith("FAILED: ") else step[:1])
        owners = [n for n in names if n in heading]
        for name in owners or (names if step[0].startswith("ninja: ") else []):
            parts[name] += step
    return {name: "".join(lines) for name, lines in parts.items()}


def deps(build, chapters):
    """Every chapter's unit generated by one ninja run (-k 0: one chapter's failure is not
    another's), then the compiler's account of each, all at once: the scans are independent
    compiler runs, one per core."""
    status, output = run(["ninja", "-C", build, "-k", "0"] + JOBS
                         + [unit_of(c) for c in chapters], build, show=True)
    generated = [c for c in chapters if status == 0 or up_to_date(build, unit_of(c))]
    said = about(output, [unit_of(c) for c in chapters])
    found = {c: {"status": status or 1, "files": [], "errors": said[unit_of(c)]}
             for c in chapters if c not in generated}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers()) as pool:
        scans = dict(zip(generated, pool.map(lambda c: scan(build, c), generated)))
    for chapter in generated:  # in chapter order, whatever order the scans ended in
        code, files, text = scans[chapter]
        if code != 0:
            sys.stdout.write(text)
        found[chapter] = {"status": code, "files": files, "errors": "" if code == 0 else text}
    return found


def defined_symbols(path, cwd):
    code, text = run(["nm", "--defined-only", "--extern-only", path], cwd)
    symbols = {}
    if code == 0:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3:
                symbols[parts[2]] = parts[1]
    return code, symbols


def shared_libraries(executable, cwd):
    code, text = run(["ldd", executable], cwd)
    return [p.split()[2] for p in text.splitlines() if "=>" in p and len(p.split()) > 2
            and p.split()[2].startswith("/")] if code == 0 else []


def symbols(build, chapters, pristine):
    found = {}
    status, output = run(["ninja", "-C", build, "-k", "0"] + JOBS
                         + [grader_of(c) for c in chapters], build, show=True)
    said = about(output, [grader_of(c) for c in chapters])
    libraries = {}  # the symbols of each shared library, listed once (cuBLAS's take seconds)
    lock = threading.Lock()

    def library_symbols(library):
        with lock:  # one listing per library, whichever chapter asks first
            if library not in libraries:
                code, text = run(["nm", "-D", "--defined-only", library], build)
                libraries[library] = {line.split()[-1].split("@")[0] for line in text.splitlines()
                                      if len(line.split()) >= 3}
            return libraries[library]

    def one(chapter):
        unit_object = None
        for root, _, names in os.walk(os.path.join(build, grader_of(chapter) + ".p")):
            for name in names:
                if name.endswith(unit_of(chapter) + ".o"):
                    unit_object = os.path.join(root, name)
        entry = {"status": status, "built": unit_object is not None
                 and up_to_date(build, grader_of(chapter)), "unit": {}, "others": [],
                 "errors": ""}
        if not entry["built"]:
            entry["errors"] = said[grader_of(chapter)]
        if entry["built"]:
            entry["unit"] = defined_symbols(unit_object, build)[1]
            if pristine:
                executable = os.path.join(build, grader_of(chapter))
                others = set(defined_symbols(executable, build)[1])
                for library in shared_libraries(executable, build):
                    others.update(library_symbols(library))
                entry["others"] = sorted(others - set(entry["unit"]))
        return entry

    # The chapters are independent: one at a time took seconds of the pristine build.
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers()) as pool:
        for chapter, entry in zip(chapters, pool.map(one, chapters)):
            found[chapter] = entry
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["deps", "symbols", "pristine"])
    parser.add_argument("build")
    parser.add_argument("chapters", nargs="*")
    parser.add_argument("--out", required=True)
    parser.add_argument("--pristine", action="store_true")
    args = parser.parse_args()
    if args.what == "deps":
        result = deps(args.build, args.chapters)
    elif args.what == "pristine":  # the pristine workbook's build: what submissions compare to
        result = {"symbols": symbols(args.build, args.chapters, True),
                  "deps": deps(args.build, args.chapters)}
    else:
        result = symbols(args.build, args.chapters, args.pristine)
    with open(args.out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
