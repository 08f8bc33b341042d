"""Runs inside a grading sandbox, in a build of the workbook, and writes what it finds as JSON to
the file named by --out (the sandbox's report pipe):

    inspect_build.py deps BUILD CHAPTER...     generates each chapter's grader unit, then asks the
                                               compiler which files it reads (nvcc -M, host and
                                               device passes): {chapter: {"status", "files",
                                               "errors"}}
    inspect_build.py pristine BUILD CHAPTER... both, for the pristine workbook
    inspect_build.py symbols BUILD CHAPTER...  builds each chapter's grader, then lists the
                                               symbols its unit defines and, for the pristine
                                               workbook, those the rest of its link defines
                                               (nm): {chapter: {"status", "unit", "others"}}

Nothing here judges anything: the grading tool does, outside the sandbox.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

OUTPUT_BYTES = 1 << 20


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


def deps(build, chapters):
    found = {}
    for chapter in chapters:  # one at a time: one chapter's failure is not another's
        status, output = run(["ninja", "-C", build, unit_of(chapter)], build, show=True)
        if status != 0:
            found[chapter] = {"status": status, "files": [], "errors": output}
            continue
        command, directory = compile_command(build, chapter)
        kept, skip = [], False
        for arg in command:
            if skip:
                skip = False
            elif arg == "-o":
                skip = True
            elif arg != "-c":
                kept.append(arg)
        code, text = run(kept + ["-M"], directory)
        if code != 0:
            sys.stdout.write(text)
        files = []
        if code == 0:
            for token in text.replace("\\\n", " ").split():
                if token.endswith(":"):
                    continue
                files.append(os.path.normpath(os.path.join(directory, token)))
        found[chapter] = {"status": code, "files": sorted(set(files)),
                          "errors": "" if code == 0 else text}
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
    status, output = run(["ninja", "-C", build, "-k", "0"] + [grader_of(c) for c in chapters],
                         build, show=True)
    for chapter in chapters:
        unit_object = None
        for root, _, names in os.walk(os.path.join(build, grader_of(chapter) + ".p")):
            for name in names:
                if name.endswith(unit_of(chapter) + ".o"):
                    unit_object = os.path.join(root, name)
        entry = {"status": status, "built": unit_object is not None
                 and up_to_date(build, grader_of(chapter)), "unit": {}, "others": []}
        if entry["built"]:
            entry["unit"] = defined_symbols(unit_object, build)[1]
            if pristine:
                executable = os.path.join(build, grader_of(chapter))
                others = set(defined_symbols(executable, build)[1])
                for library in shared_libraries(executable, build):
                    code, text = run(["nm", "-D", "--defined-only", library], build)
                    others.update(line.split()[-1].split("@")[0] for line in text.splitlines()
                                  if len(line.split()) >= 3)
                entry["others"] = sorted(others - set(entry["unit"]))
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
