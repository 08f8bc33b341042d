#!/usr/bin/env python3
"""Makes a chapter's typical wrong answers from its reference solution, for grader self-tests.

A chapter's instructors' folder holds solutions/NN_slug/wrong_answers.ini; each section is one
wrong answer:

    [bank_is_address_mod_32]
    why = what the student got wrong, in words
    from = solution            (or: skeleton, to grade the shipped skeleton unchanged)
    replace = text in the source file, exactly once (\\n stands for a line break)
    with = what it becomes (\\n likewise)
    rejected_by = host         (or gpu: which checks must fail)
    expect = text the failing checks must print
    expect_also = a second text they must print (optional)
    expect_not = a text they must not print, such as an answer they would give away (optional)
    variant = the variant it is graded on (optional; default 0, self-study: a class variant
              such as 271828182, or lowest / highest, for a slip only other cases show)

    make_wrong_answer.py list SPEC            one line per answer:
                                              name|rejected_by|expect|expect_also|expect_not|variant|built_as
                                              (built_as: the first answer made from the same
                                              source, whose grader this one is graded with:
                                              [skeleton] and [skeleton_on_gpu] are one program)
    make_wrong_answer.py make SPEC NAME SOLUTION SKELETON OUTPUT

`make` writes the solution (or the skeleton as committed in git, whatever the working tree holds)
with the one replacement applied, and fails with a
clear message when the text to replace is not found exactly once: the solution changed and the
wrong answer must follow it.
"""
import configparser
import os
import subprocess
import sys


def load(spec_path):
    spec = configparser.RawConfigParser()
    spec.optionxform = str
    if not spec.read(spec_path):
        sys.exit(f"{spec_path}: cannot read")
    for name in spec.sections():
        section = spec[name]
        for key in ("why", "rejected_by", "expect"):
            if key not in section:
                sys.exit(f"{spec_path}: [{name}] has no '{key}'")
        if section.get("from", "solution") not in ("solution", "skeleton"):
            sys.exit(f"{spec_path}: [{name}] from = must be solution or skeleton")
        if section["rejected_by"] not in ("host", "gpu"):
            sys.exit(f"{spec_path}: [{name}] rejected_by = must be host or gpu")
        if ("replace" in section) != ("with" in section):
            sys.exit(f"{spec_path}: [{name}] needs both 'replace' and 'with', or neither")
        variant = section.get("variant", "0")
        if variant not in ("lowest", "highest") and not (
                variant.isdigit() and len(variant) <= 9):
            sys.exit(f"{spec_path}: [{name}] variant = must be 0 to 999999999, lowest or "
                     f"highest, not {variant!r}")
    return spec


def committed_text(path):
    """The file as committed (git HEAD), so that an instructor who filled in the exercises in
    the same checkout still has the shipped skeleton graded; the working tree's file where the
    folder is no git checkout, the file is not committed yet (a chapter being written), or the
    build's environment says WORKBOOK_SKELETON=working-tree (a maintainer changing a skeleton
    before committing it)."""
    folder, name = os.path.split(os.path.abspath(path))
    if os.environ.get("WORKBOOK_SKELETON") == "working-tree":
        with open(path) as f:
            return f.read()
    try:
        top = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        relative = os.path.relpath(os.path.join(folder, name), top)
        committed = subprocess.run(["git", "-C", top, "show", f"HEAD:{relative}"], check=True,
                                   capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        with open(path) as f:
            return f.read()
    with open(path) as f:
        if f.read() != committed:
            print(f"note: {relative} differs from the committed skeleton; the self-tests grade "
                  f"the committed one", file=sys.stderr)
    return committed


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "list":
        spec = load(sys.argv[2])
        built_as = {}  # a source already listed: its answers share one grader
        for name in spec.sections():
            s = spec[name]
            source = (s.get("from", "solution"), s.get("replace"), s.get("with"))
            built_as.setdefault(source, name)
            fields = [name, s["rejected_by"], s["expect"], s.get("expect_also", ""),
                      s.get("expect_not", ""), s.get("variant", "0"), built_as[source]]
            if any("|" in f or "\n" in f for f in fields):
                sys.exit(f"{sys.argv[2]}: [{name}]: no '|' or line break in its fields")
            print("|".join(fields))
        return
    if len(sys.argv) != 7 or sys.argv[1] != "make":
        sys.exit(__doc__)
    _, _, spec_path, name, solution, skeleton, output = sys.argv
    spec = load(spec_path)
    if name not in spec:
        sys.exit(f"{spec_path}: no wrong answer named [{name}]")
    section = spec[name]
    if section.get("from", "solution") == "skeleton":
        source_path = skeleton
        text = committed_text(skeleton)
    else:
        source_path = solution
        with open(source_path) as f:
            text = f.read()
    if "replace" in section:
        old = section["replace"].replace("\\n", "\n")
        new = section["with"].replace("\\n", "\n")
        count = text.count(old)
        if count != 1:
            sys.exit(f"{spec_path}: [{name}]: the text to replace occurs {count} times in "
                     f"{source_path} (must be exactly once):\n  {old}")
        text = text.replace(old, new)
    with open(output, "w") as f:
        f.write(f"// Wrong answer [{name}] made by make_wrong_answer.py from {source_path}:\n"
                f"// {section['why']}\n{text}")


main()
