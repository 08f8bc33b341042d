#!/usr/bin/env python3
"""Copy attacks: exercises that take their answers from what the hand-out ships, and nothing
else. Each is a submission a class can hand in; official grading must score it zero on the items
it attacks (tools/maintainer/check_course_readiness.py grades them as a class).

    copy_attacks.py SOURCE_ROOT HANDOUT_TREE ANALYZER OUT_DIR [--control]

SOURCE_ROOT is an instructor's checkout (it has each chapter's solutions/NN_slug/copy_attacks.py,
the list of the chapter's graded items, tools/maintainer/copy_attack_items.py); HANDOUT_TREE an
unpacked hand-out (the attacker's whole view); ANALYZER the hand-out's own
build/tools/analyze_smem_access. Three attacks, each written as OUT_DIR/<attack>/, a hand-out
tree holding every chapter's exercise file:

- measurement-files: every predicted count taken from any table the hand-out holds: a quantity
  that a GPU check records for it (counted.*), or a case file's row of the same request;
- grader-code: every graded function replaced by a call of a definition of the same name (or a
  listed alias) that the hand-out's grader/ or common/ code holds, pasted into the exercise; and
  any literal answer the item lists found there; a graded kernel found there is reported;
- lesson-examples: every predicted count taken from the chapter's lesson, where an analyser
  example (or a figure) draws the graded request itself.

An item an attack finds nothing for stays as the skeleton has it. OUT_DIR/attacks.json lists
what each attack found, item by item, with the check each attacks. With --control, a copy of the
hand-out is doctored with one leak of each kind (see doctor()) for its first chapter with a
graded function and a measured prediction, and the control submission OUT_DIR/control/ made from
it must score the attacked functions' checks: proof that the attacks find and plant what a leak
gives away (the leaked counts are found too, and answer nothing: predictions are graded as rules).
"""
import dataclasses
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "grader", "tools"))
from copy_attack_items import Function, Kernel, Prediction, Request  # noqa: E402
import manifest  # noqa: E402

ATTACKS = ("measurement-files", "grader-code", "lesson-examples")
# The one measurement file a hand-out holds: the bank model in the browser's H200 cases.
COUNTED_CASES = os.path.join("tools", "student", "browser", "h200-counted-cases.tsv")
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


# --- What the hand-out's tables hold ---------------------------------------------------------

def tables(tree):
    """(quantities, cases): every `name<TAB>value` row and every case-file row (name, width, op,
    wavefronts, conflicts, 32 addresses) of every .tsv file in the tree."""
    quantities, cases = [], []
    for path in files_under(tree, ".", (".tsv",)):
        for line in read(path).splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) >= 6:
                try:
                    addresses = tuple(int(a) for a in cells[5].split())
                    if len(addresses) == 32 and cells[3].strip():
                        key = Request(int(cells[1]), cells[2].strip(), addresses).key()
                        cases.append((key, float(cells[3]), os.path.relpath(path, tree)))
                except ValueError:
                    pass
            if len(cells) >= 2:
                try:
                    quantities.append((cells[0], float(cells[1]), os.path.relpath(path, tree)))
                except ValueError:
                    pass
    return quantities, cases


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


def literal_leaks(tree, patterns):
    """[(file, first group)] of every match of `patterns` in the tree's grader/ and common/."""
    found = []
    for top in ("grader", "common"):
        for path in files_under(tree, top, SOURCE_SUFFIXES + (".tsv", ".md")):
            text = read(path)
            for pattern in patterns:
                for m in re.finditer(pattern, text):
                    found.append((os.path.relpath(path, tree), m.group(1) if m.groups() else ""))
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


# --- What the hand-out's lessons show ------------------------------------------------------

def lesson_examples(tree, chapter):
    """The analyser argument lists of the chapter's lesson and figure list (as the lesson checks
    read them: lines naming analyze_smem_access, and code spans of more arguments or a quoted
    expression alone)."""
    examples = []
    lesson = read(os.path.join(tree, "chapters", chapter, "README.md"))
    for line in lesson.splitlines():
        for m in re.finditer(r"analyze_smem_access([^`]*)", line):
            if "'" in m.group(1):
                examples.append(m.group(1).strip().rstrip(".,"))
        for m in re.finditer(r"`(--[^`]*|'[^`]*)`", line):
            if "'" in m.group(1):
                examples.append(m.group(1).strip())
    figures = read(os.path.join(tree, "chapters", chapter, "figures", "figures.tsv"))
    for line in figures.splitlines():
        if line and not line.startswith("#"):
            cells = line.split("\t")
            if len(cells) > 1 and cells[1] == "drawn by":
                continue  # a diagram's drawing script, not an analyser request
            examples += cells[2::2]
    return examples


def drawn(analyzer, arguments):
    """(request key, wavefronts) of an analyser example, or None when it draws nothing."""
    try:
        words = shlex.split(arguments)
    except ValueError:
        return None
    run = subprocess.run([analyzer, "--json"] + words, capture_output=True, text=True)
    if run.returncode != 0:
        return None
    data = json.loads(run.stdout)
    return Request(data["width"], data["op"], tuple(data["addresses"])).key(), data["wavefronts"]


# --- The attacks ---------------------------------------------------------------------------

def plant(text, item, replacement, where, chained=False):
    if chained and item.plant.old not in text:
        return text  # an earlier attack of the chain planted it
    if item.plant.old not in text:
        sys.exit(f"copy_attacks.py: {where}: the skeleton has no line `{item.plant.old}` to "
                 f"plant {item.name} into (solutions/.../copy_attacks.py is out of date)")
    return text.replace(item.plant.old, replacement, 1)


def attack(tree, root, analyzer, chapter, kind, items, skeleton, chained=False):
    """The exercise `kind` writes for `chapter`, and what it found: [(item, check, sources)].
    `chained`: `skeleton` is another attack's result, whose plants stay."""
    text, prelude, found = skeleton, [], []
    quantities, cases = tables(tree) if kind == "measurement-files" else ([], [])
    examples = []
    if kind == "lesson-examples":
        for arguments in lesson_examples(tree, chapter):
            result = drawn(analyzer, arguments)
            if result:
                examples.append((arguments, result))
    for item in items:
        sources, value, call = [], None, None
        if kind == "measurement-files" and isinstance(item, Prediction):
            key = item.request.key()
            for name, number, path in quantities:
                if any(re.fullmatch(p, name) for p in item.measured):
                    sources.append(f"{path}: {name} = {number:g}")
                    value = number
            for case, wavefronts, path in cases:
                if case == key:
                    sources.append(f"{path}: a case of the same request, {wavefronts:g} "
                                   f"wavefronts")
                    value = wavefronts
        elif kind == "grader-code" and isinstance(item, (Prediction, Function)):
            for path, literal in literal_leaks(tree, item.leaks):
                sources.append(f"{path}: holds the answer literally ({literal})")
                if isinstance(item, Prediction) and literal.isdigit():
                    value = int(literal)
            if isinstance(item, Function):
                for name in item.names:
                    for path, qualified in definitions(tree, name):
                        sources.append(f"{path}: defines {qualified}")
                        if call is None:
                            call = qualified
                            paste = pasted(tree, path)
                            if paste not in prelude:
                                prelude.append(paste)
        elif kind == "grader-code" and isinstance(item, Kernel):
            for name in item.names:
                for path, qualified in definitions(tree, name):
                    sources.append(f"{path}: defines the kernel {qualified}")
        elif kind == "lesson-examples" and isinstance(item, Prediction):
            key = item.request.key()
            for arguments, (case, wavefronts) in examples:
                if case == key:
                    sources.append(f"chapters/{chapter}: the lesson draws the graded request "
                                   f"(analyze_smem_access {arguments}): {wavefronts}")
                    value = wavefronts
        if value is not None and isinstance(item, Prediction):
            text = plant(text, item, item.plant.new.replace("{value}", str(int(value))),
                         f"{chapter} {item.name}", chained)
        if call is not None:
            text = plant(text, item, item.plant.new.replace("{call}", call),
                         f"{chapter} {item.name}", chained)
        if sources:
            found.append({"item": item.name, "check": item.check, "found": sources})
    if prelude:
        # Pasted after the exercise's own includes, before its code.
        cut = max(text.rfind("\n#include"), 0)
        cut = text.find("\n", cut + 1) + 1
        text = text[:cut] + "\n// Pasted from the hand-out by a copy attack:\n" + \
            "".join(prelude) + text[cut:]
    return text, found


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


def doctor(root, tree, analyzer, chapter, items):
    """Plants one leak of each kind for `chapter` into the hand-out copy `tree` (the H200
    measurements where the hand-out once shipped them, an H200 count of a graded request among
    the browser's cases, the reference's graded functions in a grader header, an analyser
    example of a graded request in the lesson); returns the checks the control must score: its
    functions' (a leaked count of one request answers no prediction check: each grades a rule on
    fresh cases too, as copied_answers.py measures)."""
    slug = chapter[3:]
    # The H200 measurements, where the hand-out once shipped them.
    shutil.copy(os.path.join(root, "solutions", chapter, "measurements", "h200.tsv"),
                os.path.join(tree, "grader", chapter, f"ch{chapter[:2]}_{slug}.tsv"))
    # The reference's graded functions, in a grader header.
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
    # An H200 count of a graded request among the bank model in the browser's cases, which the
    # hand-out ships as a case file (its last prediction: the lesson's leak below is its first).
    last = [i for i in items if isinstance(i, Prediction)][-1]
    arguments = ["--json", "--width", str(last.request.width), "--op", last.request.op,
                 "--addresses", " ".join(str(a) for a in last.request.addresses)]
    answer = json.loads(subprocess.run([analyzer] + arguments, capture_output=True, text=True,
                                       check=True).stdout)
    with open(os.path.join(tree, COUNTED_CASES), "a", encoding="utf-8") as f:
        f.write(f"leaked_{chapter}\t{last.request.width}\t{last.request.op}\t"
                f"{answer['wavefronts']}\t{answer['conflicts']}\t"
                + " ".join(str(a) for a in answer["addresses"]) + "\n")
    # A graded request drawn in the lesson.
    first = next(i for i in items if isinstance(i, Prediction))
    addresses = " ".join(str(a) for a in first.request.addresses)
    with open(os.path.join(tree, "chapters", chapter, "README.md"), "a") as f:
        f.write(f"\nDraw it: `analyze_smem_access --width {first.request.width} --op "
                f"{first.request.op} --addresses '{addresses}'`\n")
    return sorted({i.check for i in items if isinstance(i, Function)})


def main():
    args = [a for a in sys.argv[1:] if a != "--control"]
    if len(args) != 4:
        sys.exit(__doc__)
    root, tree, analyzer, out = (os.path.abspath(a) for a in args)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    chapters = manifest.chapters(tree)
    items = {c: load_items(root, c) for c in chapters}
    skeletons = {c: read(os.path.join(tree, "chapters", c, f"{c[3:]}_exercise.cu"))
                 for c in chapters}
    report = {"attacks": {}, "planted_chapters": []}
    planted = set()
    for kind in ATTACKS:
        exercises, found = {}, {}
        for c in chapters:
            exercises[c], found[c] = attack(tree, root, analyzer, c, kind, items[c], skeletons[c])
            if exercises[c] != skeletons[c]:
                planted.add(c)
        write_submission(out, kind, exercises)
        report["attacks"][kind] = found
    if "--control" in sys.argv[1:]:
        doctored = os.path.join(out, "doctored-handout")
        shutil.copytree(tree, doctored, ignore=shutil.ignore_patterns("build*"))
        # The first chapter with a graded function and a prediction: one leak of each kind.
        control = next((c for c in chapters
                        if any(isinstance(i, Function) for i in items[c])
                        and any(isinstance(i, Prediction) and i.measured for i in items[c])
                        and os.path.isfile(os.path.join(root, "solutions", c, "measurements",
                                                        "h200.tsv"))), None)
        if control is None:
            sys.exit("copy_attacks.py: --control needs a chapter with a graded function and a "
                     "measured prediction")
        checks = doctor(root, doctored, analyzer, control, items[control])
        exercise = skeletons[control]
        control_found = []
        for kind in ATTACKS:
            exercise, found = attack(doctored, root, analyzer, control, kind, items[control],
                                     exercise, chained=True)
            control_found += [dict(e, attack=kind) for e in found]
        write_submission(out, "control", {control: exercise})
        shutil.rmtree(doctored)
        report["control"] = {"chapter": control, "checks": checks, "found": control_found}
        planted.add(control)
    report["planted_chapters"] = sorted(planted)
    with open(os.path.join(out, "attacks.json"), "w") as f:
        json.dump(report, f, indent=2)
    leaks = sum(len(v) for found in report["attacks"].values() for v in found.values())
    for kind, found in report["attacks"].items():
        for chapter, entries in found.items():
            for e in entries:
                print(f"LEAK {kind} {chapter} {e['item']}: " + "; ".join(e["found"]))
    print(f"copy attacks: {leaks} item(s) found in the hand-out; "
          f"{len(report.get('control', {}).get('found', []))} in the doctored control")
    return 0


if __name__ == "__main__":
    sys.exit(main())
