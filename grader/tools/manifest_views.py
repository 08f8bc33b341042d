"""What is made from the chapters' manifests (grader/tools/manifest.py reads them): the C++
header each chapter's checks include, the lesson's table of checks, the instructors' table of
thresholds with their evidence, the build's list of chapters, and the sources of the wrong
answers and ablations; and the command line the build runs to make them (USAGE below).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manifest import ManifestError, chapters, load, number  # noqa: E402,F401

def passes_when_text(chapter, check):
    """The check's passes_when with each {NAME} replaced by threshold NAME as the lesson quotes
    it: behind its marker, which the lesson checks hold to the value."""
    def quoted(match):
        t = chapter.threshold(match.group(1))
        return f"<!--fig:threshold.{t.name}-->{t.value_text}"
    return re.sub(r"\{(\w+)\}", quoted, check.passes_when)


def lesson_table(chapter):
    """The lesson's markdown table of the chapter's checks: what each checks, where, its points
    and when it passes. Hidden checks are not listed one by one; a line says that official
    grading adds them."""
    lines = ["| check | where | points | passes when |", "|---|---|---|---|"]
    for c in chapter.checks:
        if c.hidden:
            continue
        lines.append(f"| {c.name[len(chapter.id) + 1:]} | {'GPU' if c.mode == 'gpu' else 'host'}"
                     f" | {number(c.points)} | {passes_when_text(chapter, c)} |")
    hidden = [c for c in chapter.checks if c.hidden]
    if hidden:
        total = number(sum(c.points for c in hidden))
        lines.append("")
        lines.append(f"Official grading adds {len(hidden)} hidden "
                     f"check{'s' if len(hidden) != 1 else ''} worth {total} "
                     f"point{'s' if total != '1' else ''}: the same functions and kernels on "
                     f"cases this workbook does not run (other sizes, other inputs, other "
                     f"seeds). Write for the contract, not for the cases you see.")
        certified = [f"*{chapter.check(i).name[len(chapter.id) + 1:]}*"
                     for c in hidden for i in c.certifies]
        if certified:
            lines[-1] += (f" There, the points of {' and of '.join(certified)} count only when "
                          f"the hidden check of the same item passes too.")
    return "\n".join(lines)


def measurements(path):
    """{quantity: value} of a measurement file (`# ` comments, then `quantity value unit` rows)."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    return {r[0]: float(r[1]) for r in rows if len(r) >= 2}


def measurement(root, folder, gpu, quantity):
    """The committed measurement `quantity` of chapter `folder` on `gpu` ("h200", "h200-sm25",
    "h200-sm10": solutions/NN_slug/measurements/GPU.tsv), or None where it is not committed."""
    try:
        return measurements(os.path.join(root, "solutions", folder, "measurements",
                                         gpu + ".tsv")).get(quantity)
    except (OSError, ValueError):
        return None


def threshold_table(root):
    """Every chapter's thresholds with the evidence for each, drawn from the committed
    measurements: what the reference measured on the H200 and on slices of 25% and 10% of its
    SMs, and how far the slowest clears the bar (the bars named reference_* hold on the full
    H200 only)."""
    lines = ["| chapter | threshold | bar | H200 | 25% of the SMs | 10% | margin |",
             "|---|---|---|---|---|---|---|"]
    for folder in chapters(root):
        c = load(root, folder, instructors=False)
        for t in c.thresholds:
            gpus = ["h200"] if t.name.startswith("reference_") else ["h200", "h200-sm25",
                                                                     "h200-sm10"]
            values = {g: measurement(root, folder, g, t.h200) for g in gpus}
            shown = [f"{values[g]:.3g}" if values.get(g) is not None else
                     ("not yet measured" if g in values else "(not held)")
                     for g in ("h200", "h200-sm25", "h200-sm10")]
            known = [v for v in values.values() if v is not None]
            margin = ""
            if known and t.value:
                worst = min(known) if t.at_least else max(known)
                if not t.at_least and worst == 0:
                    margin = f"any (measured 0; needs {t.headroom:g}x on the H200)"
                else:
                    ratio = worst / t.value if t.at_least else t.value / worst
                    margin = f"{ratio:.2f}x (needs {t.headroom:g}x on the H200)"
            lines.append(f"| {c.id} | {t.name} | {'>=' if t.at_least else '<='} {t.value_text} | "
                         + " | ".join(shown) + f" | {margin} |")
    return "\n".join(lines)


def _c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def header(chapter):
    """The C++ header the chapter's checks include (grader/harness/chapter.hpp): its thresholds
    and, for each check, the name and tags WORKBOOK_CHECK(ID) registers it with."""
    lines = [f"// Made from the manifests of chapter {chapter.folder} by grader/tools/manifest_views.py "
             f"(do not edit).",
             "#pragma once", "", "#include <array>", "",
             '#include "grader/harness/threshold.hpp"', "",
             "namespace grader::chapter {", "",
             f"inline constexpr std::array<Threshold, {len(chapter.thresholds)}> kThresholds{{{{"]
    for t in chapter.thresholds:
        lines.append(f"    {{{_c_string(t.name)}, {t.value_text}, "
                     f"Bound::{'kAtLeast' if t.at_least else 'kAtMost'}, {_c_string(t.h200)}, "
                     f"{t.headroom!r}, {_c_string(t.why)}}},")
    lines += ["}};", "", "/// The chapter's checks: WORKBOOK_CHECK(ID) registers check ID.",
              "namespace checks {"]
    for c in chapter.checks:
        lines.append(f"inline constexpr CheckItem {c.id}{{{_c_string(c.name)}, "
                     f"{_c_string(c.tags)}}};")
    lines += ["}  // namespace checks", "", "}  // namespace grader::chapter", ""]
    return "\n".join(lines)


USAGE = """usage:
  manifest_views.py chapters ROOT student|solution [CHAPTER ...]
      each chapter the build grades, a line each: FOLDER|MIN_SM|ALSO_BUILD_FOR|LIBRARIES|
      CUDA_MODULES|SOURCES (lists comma-separated); a half-added chapter is an error naming
      the file it lacks; with CHAPTER arguments (-Dchapters), only those
  manifest_views.py header ROOT FOLDER OUTPUT
      the chapter's C++ header: thresholds, and each check's name and tags
  manifest_views.py check-grader GRADER ROOT FOLDER [--catch2-v3]
      the grader registers exactly the manifests' checks, each in its mode
  manifest_views.py wrong-answers ROOT FOLDER
      the wrong answers, a line each: NAME|MODE|VARIANT|BUILT_AS (BUILT_AS: the first answer
      made from the same source, whose grader this one shares)
  manifest_views.py make-wrong ROOT FOLDER NAME SOLUTION SKELETON OUTPUT
      the wrong answer's source: the solution (or the skeleton as committed) with its edit
  manifest_views.py thresholds ROOT
      every chapter's thresholds with their evidence, the committed measurements (Markdown)
  manifest_views.py ablations ROOT FOLDER
      the names of the maintainers' ablations, a line each
  manifest_views.py make-ablation ROOT FOLDER NAME SOLUTION PROBES OUTPUT
      the ablation's unit: the device probes and the solution with its edits, the chapter's
      namespace chNN renamed chNN_NAME, so that the grader holds it beside the reference"""


def required_files(root, folder, mode):
    slug = folder[3:]
    files = [f"chapters/{folder}/README.md", f"chapters/{folder}/{slug}.cuh",
             f"chapters/{folder}/{slug}_exercise.cu"]
    files += [f"grader/{folder}/{name}" for name in (
        "chapter.ini", "host_checks.cpp", "gpu_checks.cpp", "device_probes.cu")]
    if mode == "solution":  # the instructors' folder; a hand-out has none
        files += [f"solutions/{folder}/{name}" for name in (
            f"{slug}_exercise.cu", "lesson_checks.cpp", "chapter.ini")]
    return files


def _list_chapters(root, mode, wanted):
    folders = chapters(root)
    for name in wanted:
        if name not in folders:
            raise ManifestError(f"-Dchapters: '{name}' is not a chapter; the chapters are "
                                f"{', '.join(folders)}")
    if wanted:
        folders = [c for c in folders if c in wanted]
    lines = []
    for folder in folders:
        if mode == "solution" and not os.path.isdir(os.path.join(root, "solutions", folder)):
            raise ManifestError(f"chapter {folder} has no folder solutions/{folder}: solution "
                                f"mode (-Dkernels=solution) needs the reference solutions; "
                                f"build the hand-out in student mode")
        for path in required_files(root, folder, mode):
            if not os.path.isfile(os.path.join(root, path)):
                raise ManifestError(f"chapter {folder} has no file {path} (its folder name "
                                    f"implies it; see docs/instructors/maintaining.md)")
        c = load(root, folder)
        for source in c.sources:
            if not os.path.isfile(os.path.join(root, "grader", folder, source)):
                raise ManifestError(f"grader/{folder}/chapter.ini: [chapter] sources names "
                                    f"{source}, which grader/{folder}/ does not hold")
        lines.append("|".join([folder, str(c.min_compute_capability)] + [
            ",".join(v) for v in (c.also_build_for, c.libraries, c.cuda_modules, c.sources)]))
    return "\n".join(lines)


def _listed_checks(grader, mode, v3):
    option = ["--list-tests", "--verbosity", "quiet"] if v3 else ["--list-test-names-only"]
    run = subprocess.run([grader, mode] + option, capture_output=True, text=True)
    if run.returncode == 77 and mode != "host":  # no GPU grader in this build (no GPU found)
        return None
    if run.returncode != 0:
        raise ManifestError(f"{grader} {mode} could not list its checks:\n{run.stdout}"
                            f"{run.stderr}")
    return {line.strip() for line in run.stdout.splitlines() if line.strip()}


def _check_grader(grader, root, folder, v3):
    c = load(root, folder)
    problems, unlisted = [], ""
    for mode in ("host", "gpu"):
        have = _listed_checks(grader, mode, v3)
        if have is None:
            unlisted = f"; its {mode} checks not compared: this build has no GPU grader"
            continue
        declared = {check.name for check in c.checks if check.mode == mode}
        problems += [f"a {mode} check the manifests do not declare: {n}"
                     for n in sorted(have - declared)]
        problems += [f"a {mode} check of the manifests that the grader does not register "
                     f"(WORKBOOK_CHECK): {n}" for n in sorted(declared - have)]
    if problems:
        raise ManifestError(f"chapter {folder}:\n  " + "\n  ".join(problems))
    hidden = sum(check.hidden for check in c.checks)
    return (f"chapter {folder}: {len(c.checks)} checks ({hidden} hidden), "
            f"{number(sum(check.points for check in c.checks))} points, each registered once"
            f"{unlisted}")


def committed_text(path):
    """The file as committed (git HEAD), so that an instructor who filled in the exercises in
    the same checkout still has the shipped skeleton graded; the working tree's file where the
    folder is no git checkout, the file is not committed yet (a chapter being written), or the
    build's environment says WORKBOOK_SKELETON=working-tree (a maintainer changing a skeleton
    before committing it)."""
    with open(path, encoding="utf-8") as f:
        working = f.read()
    if os.environ.get("WORKBOOK_SKELETON") == "working-tree":
        return working
    folder, name = os.path.split(os.path.abspath(path))
    try:
        top = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        relative = os.path.relpath(os.path.join(folder, name), top)
        committed = subprocess.run(["git", "-C", top, "show", f"HEAD:{relative}"], check=True,
                                   capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return working
    if working != committed:
        print(f"note: {relative} differs from the committed skeleton; the self-tests grade "
              f"the committed one", file=sys.stderr)
    return committed


def apply_edits(text, edits, what, path):
    """`text` with each (old, new) of `edits` applied; each old text must be found exactly once."""
    for old, new in edits:
        count = text.count(old)
        if count != 1:
            raise ManifestError(f"{what}: the text to replace occurs {count} times in {path} "
                                f"(must be exactly once):\n  {old}")
        text = text.replace(old, new)
    return text


def _wrong_answers(root, folder):
    lines, built_as = [], {}
    for w in load(root, folder).wrong_answers:
        source = (w.source, w.edits)
        built_as.setdefault(source, w.name)
        lines.append("|".join([w.name, w.mode, w.variant, built_as[source]]))
    return "\n".join(lines)


def _make_wrong(root, folder, name, solution, skeleton, output):
    answers = {w.name: w for w in load(root, folder).wrong_answers}
    if name not in answers:
        raise ManifestError(f"solutions/{folder}/chapter.ini: no wrong answer [wrong.{name}]")
    w = answers[name]
    path = skeleton if w.source == "skeleton" else solution
    if w.source == "skeleton":
        text = committed_text(path)
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    text = apply_edits(text, w.edits, f"solutions/{folder}/chapter.ini: [wrong.{name}]", path)
    with open(output, "w", encoding="utf-8") as f:
        f.write(f"// Wrong answer [wrong.{name}] of solutions/{folder}/chapter.ini, made from "
                f"{path}:\n// {w.why}\n{text}")


def _make_ablation(root, folder, name, solution, probes, output):
    ablations = {a.name: a for a in load(root, folder).ablations}
    if name not in ablations:
        raise ManifestError(f"solutions/{folder}/chapter.ini: no ablation [ablation.{name}]")
    chapter_id = "ch" + folder[:2]
    parts = [f"// Ablation [ablation.{name}] of solutions/{folder}/chapter.ini, made by "
             f"grader/tools/manifest_views.py: {ablations[name].why}\n",
             f"#define {chapter_id} {chapter_id}_{name}\n"]
    with open(solution, encoding="utf-8") as f:
        edited = apply_edits(f.read(), ablations[name].edits,
                             f"solutions/{folder}/chapter.ini: [ablation.{name}]", solution)
    for path, text in ((probes, open(probes, encoding="utf-8").read()), (solution, edited)):
        parts.append(f'#line 1 "{path}"\n{text}' + ("" if text.endswith("\n") else "\n"))
    with open(output, "w", encoding="utf-8") as f:
        f.write("".join(parts))


def main(argv):
    try:
        if len(argv) >= 3 and argv[0] == "chapters" and argv[2] in ("student", "solution"):
            print(_list_chapters(argv[1], argv[2], argv[3:]))
        elif len(argv) == 4 and argv[0] == "header":
            text = header(load(argv[1], argv[2]))
            with open(argv[3], "w", encoding="utf-8") as f:
                f.write(text)
        elif len(argv) in (4, 5) and argv[0] == "check-grader":
            print(_check_grader(argv[1], argv[2], argv[3], "--catch2-v3" in argv[4:]))
        elif len(argv) == 3 and argv[0] == "wrong-answers":
            print(_wrong_answers(argv[1], argv[2]))
        elif len(argv) == 7 and argv[0] == "make-wrong":
            _make_wrong(*argv[1:])
        elif len(argv) == 2 and argv[0] == "thresholds":
            print(threshold_table(argv[1]))
        elif len(argv) == 3 and argv[0] == "ablations":
            print("\n".join(a.name for a in load(argv[1], argv[2]).ablations))
        elif len(argv) == 7 and argv[0] == "make-ablation":
            _make_ablation(*argv[1:])
        else:
            sys.exit(USAGE)
    except ManifestError as e:
        sys.exit(str(e))


if __name__ == "__main__":
    main(sys.argv[1:])
