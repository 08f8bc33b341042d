#!/usr/bin/env python3
"""A copy attack: exercises that take their answers from what the hand-out ships, and nothing
else. Each is a submission a class can hand in; official grading must score it zero on the items
it attacks (tools/maintainer/check_course_readiness.py grades them as a class).

    copy_attacks.py SOURCE_ROOT HANDOUT_TREE OUT_DIR [--control]

SOURCE_ROOT is an instructor's checkout (each chapter's solutions/NN_slug/copy_attacks.py lists
its graded items: tools/maintainer/copy_attack_items.py); HANDOUT_TREE an unpacked hand-out (the
attacker's whole view). Why predictions need no attack: docs/instructors/maintaining.md.

- OUT_DIR/grader-code/: every chapter's exercise, each graded function replaced by a call of a
  definition of the same name (or a listed alias) in the hand-out's grader/ or common/ code,
  pasted into the exercise; a graded kernel found there is reported.
- OUT_DIR/local-runs/: each graded function that declares where the local runs ask it (`local`)
  answers there only, the rest of the exercise being the reference's.
- OUT_DIR/attacks.json: what was found, item by item, with the check each attacks.
- --control: OUT_DIR/control/, made from a copy of the hand-out doctored with the reference's
  graded functions in a grader header (doctor()) for its first chapter with a graded function;
  it must score the attacked functions' checks, proof that the attack finds what a leak gives.

An item the attack finds nothing for stays as the skeleton has it.
"""
import dataclasses
import importlib.util
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "grader", "tools"))
from copy_attack_items import Function, Kernel  # noqa: E402
import manifest  # noqa: E402

ATTACK = "grader-code"
LOCAL = "local-runs"
SOURCE_SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh", ".h")


def load_items(root, chapter):
    """The chapter's graded items, from solutions/NN_slug/copy_attacks.py, each with the name of
    the check it targets (the items name them by their ids in the chapter's manifests)."""
    path = os.path.join(root, "solutions", chapter, "copy_attacks.py")
    if not os.path.isfile(path):
        sys.exit(f"copy_attacks.py: {path} is missing: every chapter lists its graded items")
    spec = importlib.util.spec_from_file_location(f"attacks_{chapter}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        names = {c.id: c.name for c in manifest.load(root, chapter).checks}
    except manifest.ManifestError as e:
        sys.exit(f"copy_attacks.py: {e}")
    items = []
    for item in module.ITEMS:
        if item.check not in names:
            sys.exit(f"{path}: item {item.name} targets check {item.check!r}, which the "
                     f"chapter's manifests do not declare")
        items.append(dataclasses.replace(item, check=names[item.check]))
    return items


def files_under(tree, top, suffixes=None):
    for folder, _, names in os.walk(os.path.join(tree, top)):
        for name in sorted(names):
            if suffixes is None or name.endswith(suffixes):
                yield os.path.join(folder, name)


def read(path):
    try:
        return open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        return ""


# --- What the hand-out's code holds ----------------------------------------------------------

def namespace_at(text, position):
    """The namespace (a::b) enclosing `position` of C++ `text`, by its braces."""
    stack = []
    for m in re.finditer(r"namespace\s+([\w:]+)\s*\{|\{|\}", text[:position]):
        if m.group(1):
            stack.append(m.group(1))
        elif m.group(0) == "{":
            stack.append(None)
        elif stack:
            stack.pop()
    return "::".join(n for n in stack if n)


def definitions(tree, name):
    """[(file, qualified name)] of every definition of a function (or kernel) `name` in the
    tree's grader/ and common/ code."""
    found = []
    pattern = re.compile(r"(?m)^[ \t]*(?:template\s*<[^>]*>\s*)?(?:[\w:<>,*&]+[ \t\n]+)+"
                         r"(?:__launch_bounds__\([^)]*\)\s*)?" + re.escape(name) +
                         r"\s*(?:<[^>]*>)?\s*\([^;{]*\)\s*(?:const\s*)?\{")
    for top in ("grader", "common"):
        for path in files_under(tree, top, SOURCE_SUFFIXES):
            text = read(path)
            for m in pattern.finditer(text):
                namespace = namespace_at(text, m.start())
                found.append((os.path.relpath(path, tree),
                              (namespace + "::" if namespace else "") + name))
    return found


def pasted(tree, path):
    """A grader or library file's text as an exercise could paste it: without #pragma once and
    without its includes of grader/ headers (an exercise may not include those)."""
    lines = []
    for line in read(os.path.join(tree, path)).splitlines():
        if line.strip() == "#pragma once" or re.match(r'\s*#\s*include\s*"grader/', line):
            continue
        lines.append(line)
    return "\n".join(lines) + "\n"


# --- The attacks ---------------------------------------------------------------------------

def plant(text, item, replacement, where):
    if item.plant.old not in text:
        sys.exit(f"copy_attacks.py: {where}: the skeleton has no line `{item.plant.old}` to "
                 f"plant {item.name} into (solutions/.../copy_attacks.py is out of date)")
    return text.replace(item.plant.old, replacement, 1)


def attack(tree, chapter, items, skeleton):
    """The exercise the grader-code attack writes for `chapter`, and what it found: [(item, check,
    sources)]."""
    text, prelude, found = skeleton, [], []
    for item in items:
        sources, call, kernel = [], None, isinstance(item, Kernel)
        for name in item.names:
            for path, qualified in definitions(tree, name):
                sources.append(f"{path}: defines {'the kernel ' * kernel}{qualified}")
                if not kernel and call is None:
                    call = qualified
                    paste = pasted(tree, path)
                    if paste not in prelude:
                        prelude.append(paste)
        if call is not None:
            text = plant(text, item, item.plant.new.replace("{call}", call),
                         f"{chapter} {item.name}")
        if sources:
            found.append({"item": item.name, "check": item.check, "found": sources})
    if prelude:
        # Pasted after the exercise's own includes, before its code.
        cut = max(text.rfind("\n#include"), 0)
        cut = text.find("\n", cut + 1) + 1
        text = text[:cut] + "\n// Pasted from the hand-out by a copy attack:\n" + \
            "".join(prelude) + text[cut:]
    return text, found


def local_runs(root, chapter, items, skeleton):
    """The local-runs attack's exercise for `chapter` (the reference solution, each function that
    declares `local` answering there only and as the skeleton does elsewhere), and its checks."""
    text = read(os.path.join(root, "solutions", chapter, f"{chapter[3:]}_exercise.cu"))
    aimed = set()
    for item in (i for i in items if isinstance(i, Function) and i.local):
        aimed.add(item.check)
        name = item.names[0]
        reference, stub = function_text(text, name), function_text(skeleton, name)
        if not reference or not stub:
            sys.exit(f"copy_attacks.py: {chapter}: the solution or the skeleton defines no {name}")
        header = reference[:reference.index("{")]
        args = re.search(r"\{call\}\(([^)]*)\)", item.plant.new).group(1)
        text = text.replace(reference, header.replace(name + "(", name + "_of_local_runs(", 1) +
                            reference[len(header):] + "\n\n" + header + "{\n  if (" +
                            item.local + ") return " + name + "_of_local_runs(" + args + ");\n" +
                            stub[stub.index("{") + 1:], 1)
    return text, sorted(aimed)


def write_submission(out, name, exercises):
    for chapter, text in exercises.items():
        path = os.path.join(out, name, "chapters", chapter, f"{chapter[3:]}_exercise.cu")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def function_text(source, name):
    """The text of the definition of function `name` in C++ `source`, to its closing brace."""
    m = re.search(r"(?m)^[^\n;{}]*\b" + re.escape(name) + r"\s*\([^;{]*\)\s*\{", source)
    if not m:
        return None
    depth, i = 0, source.index("{", m.start())
    while i < len(source):
        depth += {"{": 1, "}": -1}.get(source[i], 0)
        if depth == 0:
            return source[m.start():i + 1]
        i += 1
    return None


def doctor(root, tree, chapter, items):
    """Plants the reference's graded functions of `chapter`, in a grader header, into the
    hand-out copy `tree`; returns the checks the control must score: its functions'."""
    slug = chapter[3:]
    solution = read(os.path.join(root, "solutions", chapter, f"{slug}_exercise.cu"))
    header = ['#pragma once\n#include "chapters/%s/%s.cuh"\nnamespace ch%s::leaked {'
              % (chapter, slug, chapter[:2])]
    for item in items:
        if isinstance(item, Function):
            body = function_text(solution, item.names[0])
            if body:
                header.append(body)
    header.append("}  // namespace\n")
    with open(os.path.join(tree, "grader", chapter, "leaked_reference.hpp"), "w") as f:
        f.write("\n".join(header))
    return sorted({i.check for i in items if isinstance(i, Function)})


def main():
    args = [a for a in sys.argv[1:] if a != "--control"]
    if len(args) != 3:
        sys.exit(__doc__)
    root, tree, out = (os.path.abspath(a) for a in args)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    chapters = manifest.chapters(tree)
    items = {c: load_items(root, c) for c in chapters}
    skeletons = {c: read(os.path.join(tree, "chapters", c, f"{c[3:]}_exercise.cu"))
                 for c in chapters}
    exercises, found = {}, {}
    for c in chapters:
        exercises[c], found[c] = attack(tree, c, items[c], skeletons[c])
    write_submission(out, ATTACK, exercises)
    report = {"attacks": {ATTACK: found}}
    narrowed = {c: local_runs(root, c, items[c], skeletons[c]) for c in chapters}
    report[LOCAL] = {c: aimed for c, (_, aimed) in narrowed.items() if aimed}
    write_submission(out, LOCAL, {c: narrowed[c][0] for c in report[LOCAL]})
    planted = {c for c in chapters if exercises[c] != skeletons[c]}
    if "--control" in sys.argv[1:]:
        doctored = os.path.join(out, "doctored-handout")
        shutil.copytree(tree, doctored, ignore=shutil.ignore_patterns("build*"))
        # The first chapter with a graded function.
        control = next((c for c in chapters if any(isinstance(i, Function) for i in items[c])),
                       None)
        if control is None:
            sys.exit("copy_attacks.py: --control needs a chapter with a graded function")
        checks = doctor(root, doctored, control, items[control])
        exercise, found = attack(doctored, control, items[control], skeletons[control])
        write_submission(out, "control", {control: exercise})
        shutil.rmtree(doctored)
        report["control"] = {"chapter": control, "checks": checks,
                             "found": [dict(e, attack=ATTACK) for e in found]}
        planted.add(control)
    report["planted_chapters"] = sorted(planted)
    with open(os.path.join(out, "attacks.json"), "w") as f:
        json.dump(report, f, indent=2)
    leaks = sum(len(v) for found in report["attacks"].values() for v in found.values())
    for kind, found in report["attacks"].items():
        for chapter, entries in found.items():
            for e in entries:
                print(f"LEAK {kind} {chapter} {e['item']}: " + "; ".join(e["found"]))
    print(f"copy attack: {leaks} item(s) found in the hand-out; "
          f"{len(report.get('control', {}).get('found', []))} in the doctored control")
    return 0


if __name__ == "__main__":
    sys.exit(main())
