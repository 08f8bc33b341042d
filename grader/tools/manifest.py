"""A chapter's manifest: the one place each of its graded items, thresholds and build needs is
declared. This module reads and checks it; what is made from it (the grader's header, the
lesson's table of checks, the build's listings) is grader/tools/manifest_views.py's. Official
grading, the wrong answers' self-tests and the copy attacks read the manifests here.

A chapter has one manifest per audience, both named chapter.ini:

- grader/NN_slug/chapter.ini, handed out: what the chapter's build needs ([chapter]), its
  thresholds ([threshold.NAME]) and the checks a student's run has ([check.ID]);
- solutions/NN_slug/chapter.ini, the instructors': the hidden checks of official grading
  ([check.ID] with ids starting hidden_), the typical wrong answers ([wrong.NAME]), the
  maintainers' ablations ([ablation.NAME]) and the counters checks whose line-by-line view the
  GPU machine holds to Nsight Compute's ([lines.CHECK_ID]).

The keys of each section are in KEYS below, with what they mean; an unknown key, a missing one,
or a value of the wrong shape is an error naming the file, the section and the key. Values may
continue on indented lines; runs of white space read as one space, but in `replace` and `with`
(\\n, a line break; the text kept as written).
"""
import configparser
import os
import re
from dataclasses import dataclass, field

KINDS = {"function", "prediction", "layout", "kernel", "speed", "guard"}
# Every key a section may have: (required, meaning).
KEYS = {
    "chapter": {
        "min_compute_capability": (True, "older GPUs skip the GPU checks, with the reason"),
        "also_build_for": (False, "architectures built whatever gpu_targets says (90, 90a)"),
        "libraries": (False, "the shared libraries the grader links (transpose_bench, gemm_bench)"),
        "cuda_modules": (False, "CUDA libraries the grader links (cublas, cublasLt)"),
        "sources": (False, "files of grader/NN_slug/ compiled into a library of the grader's own"),
    },
    "threshold": {
        "at_least": (False, "passes when the measured value is at least this (or at_most)"),
        "at_most": (False, "passes when the measured value is at most this"),
        "h200": (True, "the quantity of the H200 measurement file that justifies the value"),
        "headroom": (True, "how far the reference must clear the value on the H200"),
        "why": (True, "what the limit guards against, and why this value"),
    },
    "check": {
        "name": (True, "the check's name, as the grader reports it"),
        "mode": (True, "host (no GPU needed) or gpu"),
        "points": (True, "what passing earns: a number >= 0 (0 for a guard the skeleton passes)"),
        "kind": (True, "what it certifies: " + ", ".join(sorted(KINDS))),
        "passes_when": (True, "a phrase for the lesson's table; {NAME} quotes threshold NAME"),
        "draws": (False, "what the check draws from the student's variant; empty: nothing"),
        "thresholds": (False, "the chapter's thresholds the check applies"),
        "certifies": (False, "(hidden) the checks whose points need it passed: fresh cases"),
    },
    "wrong": {
        "why": (True, "what the student got wrong, in words"),
        "from": (False, "solution (the default) or skeleton: the file the edit applies to"),
        "replace": (False, "text of that file, found exactly once (with `with`)"),
        "with": (False, "what it becomes"),
        "fails": (True, "the checks that must fail (ids); all of one mode"),
        "passes": (False, "checks of that mode that must not fail: a slip the local checks miss"),
        "expect": (False, "a text the failing checks must print (on the first screen too)"),
        "expect_also": (False, "a second text they must print"),
        "expect_not": (False, "a text nothing may print (an answer it would give away)"),
        "variant": (False, "the variant it is graded on: 0 (default), lowest, highest or a number"),
    },
    "lines": {
        "on": (True, "reference, or the wrong answer whose kernels the counters check runs"),
        "why": (True, "what the kernel shows: where its conflicts are, or that it has none"),
    },
    "ablation": {
        "why": (True, "the design choice it undoes, and which measurement records it"),
        "replace": (True, "text of the reference solution, found exactly once"),
        "with": (True, "what it becomes"),
        "replace2": (False, "a second edit"),
        "with2": (False, "what the second text becomes"),
    },
}
KEYS["wrong"].update({k + "_on_gpu": (False, f"{k} of NAME_on_gpu: this edit, GPU checks") for k in
                      ("why", "fails", "passes", "expect", "expect_also", "expect_not")})
CODE_KEYS = {"replace", "with", "replace2", "with2"}


class ManifestError(Exception):
    """A manifest that is missing, malformed, or inconsistent."""


@dataclass(frozen=True)
class Check:
    id: str
    name: str
    mode: str                 # "host" or "gpu"
    points: float
    kind: str
    passes_when: str
    draws: str = ""
    thresholds: tuple = ()
    hidden: bool = False      # declared by the instructors' manifest
    certifies: tuple = ()     # of a hidden check: ids whose official points need it passed

    @property
    def tags(self):
        return f"[{self.mode}]" + ("[variant]" if self.draws else "")


@dataclass(frozen=True)
class Threshold:
    name: str
    value: float
    at_least: bool
    h200: str
    headroom: float
    why: str
    value_text: str           # as written ("0.90"), which the lesson quotes


@dataclass(frozen=True)
class WrongAnswer:
    name: str
    why: str
    source: str               # "solution" or "skeleton"
    edits: tuple              # ((old, new), ...)
    fails: tuple
    passes: tuple
    mode: str
    expect: str
    expect_also: str
    expect_not: str
    variant: str


@dataclass(frozen=True)
class Ablation:
    name: str
    why: str
    edits: tuple


@dataclass
class Chapter:
    folder: str
    min_compute_capability: int = 75
    also_build_for: tuple = ()
    libraries: tuple = ()
    cuda_modules: tuple = ()
    sources: tuple = ()
    thresholds: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    wrong_answers: list = field(default_factory=list)
    ablations: list = field(default_factory=list)
    compared_lines: list = field(default_factory=list)  # [(check id, "reference" or answer, why)]

    @property
    def id(self):
        return "ch" + self.folder[:2]

    @property
    def slug(self):
        return self.folder[3:]

    def check(self, check_id):  # KeyError where none has that id
        return {c.id: c for c in self.checks}[check_id]

    def threshold(self, name):
        return {t.name: t for t in self.thresholds}[name]


def _read(path):
    parser = configparser.RawConfigParser(interpolation=None, strict=True,
                                          empty_lines_in_values=False)
    parser.optionxform = str
    try:
        with open(path, encoding="utf-8") as f:
            parser.read_file(f)
    except OSError as e:
        raise ManifestError(f"cannot read {path}: {e}") from None
    except configparser.Error as e:
        raise ManifestError(f"{path}: {e}".replace("\n", " ")) from None
    return parser


def _values(path, section, kind):
    """The section's values, checked against KEYS[kind]: prose with its white space folded, code
    with \\n as a line break."""
    where = f"{path}: [{section.name}]"
    allowed = KEYS[kind]
    for key in section:
        if key not in allowed:
            raise ManifestError(f"{where}: unknown key '{key}'; a {kind} section has "
                                f"{', '.join(allowed)}")
    for key, (required, meaning) in allowed.items():
        if required and not section.get(key, "").strip():
            raise ManifestError(f"{where}: no '{key}' ({meaning})")
    out = {}
    for key in section:
        text = section[key]
        out[key] = text.replace("\\n", "\n") if key in CODE_KEYS else " ".join(text.split())
    return out, where


def _number(text, where, key, minimum=None):
    try:
        value = float(text)
    except ValueError:
        raise ManifestError(f"{where}: {key} = {text!r} is not a number") from None
    if value != value or (minimum is not None and value < minimum):
        raise ManifestError(f"{where}: {key} must be a number >= {minimum}")
    return value


def _words(text):
    return tuple(text.replace(",", " ").split())


def _edits(values, where, pairs):
    edits = []
    for old_key, new_key in pairs:
        if (old_key in values) != (new_key in values):
            raise ManifestError(f"{where}: needs both '{old_key}' and '{new_key}', or neither")
        if old_key in values:
            edits.append((values[old_key], values[new_key]))
    return tuple(edits)


def _check(values, where, check_id, hidden):
    if not re.fullmatch(r"[a-z][a-z0-9_]*", check_id):
        raise ManifestError(f"{where}: a check's id is lowercase letters, digits and _")
    if hidden != check_id.startswith("hidden_"):
        raise ManifestError(f"{where}: the ids of hidden checks (solutions/) start with hidden_, "
                            f"and only theirs")
    if values["mode"] not in ("host", "gpu"):
        raise ManifestError(f"{where}: mode = {values['mode']!r}; say host or gpu")
    if values["kind"] not in KINDS:
        raise ManifestError(f"{where}: kind = {values['kind']!r}; say one of "
                            f"{', '.join(sorted(KINDS))}")
    if any(c in values["name"] for c in "\t\n\"\\"):
        raise ManifestError(f"{where}: a name holds no tab, line break, quote or backslash")
    if "certifies" in values and not hidden:
        raise ManifestError(f"{where}: only a hidden check certifies others")
    return Check(check_id, values["name"], values["mode"],
                 _number(values["points"], where, "points", 0), values["kind"],
                 values["passes_when"], values.get("draws", ""),
                 _words(values.get("thresholds", "")), hidden,
                 _words(values.get("certifies", "")))


def _grader_part(chapter, path):
    parser = _read(path)
    if "chapter" not in parser:
        raise ManifestError(f"{path}: no [chapter] section (what the chapter's build needs)")
    for name in parser.sections():
        kind, _, key = name.partition(".")
        if name == "chapter":
            values, where = _values(path, parser[name], "chapter")
            chapter.min_compute_capability = int(_number(values["min_compute_capability"], where,
                                                         "min_compute_capability", 75))
            chapter.also_build_for = _words(values.get("also_build_for", ""))
            chapter.libraries = _words(values.get("libraries", ""))
            chapter.cuda_modules = _words(values.get("cuda_modules", ""))
            chapter.sources = _words(values.get("sources", ""))
        elif kind == "threshold" and key:
            values, where = _values(path, parser[name], "threshold")
            if ("at_least" in values) == ("at_most" in values):
                raise ManifestError(f"{where}: say at_least = or at_most =, one of them")
            text = values.get("at_least", values.get("at_most"))
            chapter.thresholds.append(Threshold(
                key, _number(text, where, "the limit"), "at_least" in values, values["h200"],
                _number(values["headroom"], where, "headroom", 1), values["why"], text))
        elif kind == "check" and key:
            values, where = _values(path, parser[name], "check")
            chapter.checks.append(_check(values, where, key, hidden=False))
        else:
            raise ManifestError(f"{path}: [{name}] is no section of a chapter's manifest: say "
                                f"[chapter], [threshold.NAME] or [check.ID]")


def _instructors_part(chapter, path):
    parser = _read(path)
    for name in parser.sections():
        kind, _, key = name.partition(".")
        if kind == "check" and key:
            values, where = _values(path, parser[name], "check")
            chapter.checks.append(_check(values, where, key, hidden=True))
        elif kind == "wrong" and key:
            values, where = _values(path, parser[name], "wrong")
            source = values.get("from", "solution")
            if source not in ("solution", "skeleton"):
                raise ManifestError(f"{where}: from = {source!r}; say solution or skeleton")
            variant = values.get("variant", "0")
            if variant not in ("lowest", "highest") and not (variant.isdigit()
                                                            and len(variant) <= 9):
                raise ManifestError(f"{where}: variant = {variant!r}; say 0 to 999999999, "
                                    f"lowest or highest")
            for text_key in (k for k in values if k.startswith("expect") and "|" in values[k]):
                raise ManifestError(f"{where}: {text_key} holds no '|'")
            edits = _edits(values, where, [("replace", "with")])
            for suffix in ("", "_on_gpu") if "fails_on_gpu" in values else ("",):
                chapter.wrong_answers.append(WrongAnswer(
                    key + suffix, values.get("why" + suffix, values["why"]), source, edits,
                    _words(values["fails" + suffix]), _words(values.get("passes" + suffix, "")),
                    "", values.get("expect" + suffix, ""),
                    values.get("expect_also" + suffix, ""), values.get("expect_not" + suffix, ""),
                    variant))
        elif kind == "ablation" and key:
            values, where = _values(path, parser[name], "ablation")
            chapter.ablations.append(Ablation(
                key, values["why"], _edits(values, where, [("replace", "with"),
                                                            ("replace2", "with2")])))
        elif kind == "lines" and key:
            values, where = _values(path, parser[name], "lines")
            chapter.compared_lines.append((key, values["on"], values["why"]))
        else:
            raise ManifestError(f"{path}: [{name}] is no section of the instructors' manifest: "
                                f"say [check.hidden_ID], [wrong.NAME], [ablation.NAME] or "
                                f"[lines.CHECK_ID]")


def _consistent(chapter, paths):
    where = " and ".join(paths)
    ids = [c.id for c in chapter.checks]
    names = [c.name for c in chapter.checks]
    for label, values in (("id", ids), ("name", names)):
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise ManifestError(f"{where}: two checks have the {label} {twice[0]!r}")
    for c in chapter.checks:
        if not c.name.startswith(chapter.id + " "):
            raise ManifestError(f"{where}: [check.{c.id}]: its name must start with "
                                f"'{chapter.id} '")
        for t in c.thresholds:
            if t not in {t.name for t in chapter.thresholds}:
                raise ManifestError(f"{where}: [check.{c.id}] applies threshold {t!r}, which "
                                    f"grader/{chapter.folder}/chapter.ini does not declare")
        for name in re.findall(r"\{(\w+)\}", c.passes_when):
            if name not in c.thresholds:
                raise ManifestError(f"{where}: [check.{c.id}] quotes {{{name}}} in passes_when "
                                    f"but does not list it in thresholds")
        for certified in c.certifies:
            if certified not in ids or certified.startswith("hidden_"):
                raise ManifestError(f"{where}: [check.{c.id}] certifies {certified!r}, which is "
                                    f"no check of the hand-out's manifest")
    wrong_names = [w.name for w in chapter.wrong_answers]
    twice = sorted({n for n in wrong_names if wrong_names.count(n) > 1})
    if twice:
        raise ManifestError(f"{where}: two wrong answers are named {twice[0]!r}")
    by_id = {c.id: c for c in chapter.checks}
    for i, w in enumerate(chapter.wrong_answers):
        for check_id in w.fails + w.passes:
            if check_id not in by_id:
                raise ManifestError(f"{where}: [wrong.{w.name}] names check {check_id!r}, which "
                                    f"neither manifest declares")
        modes = {by_id[c].mode for c in w.fails + w.passes}
        if len(modes) != 1:
            raise ManifestError(f"{where}: [wrong.{w.name}]: its fails and passes checks must be "
                                f"of one mode (host or gpu), not {sorted(modes)}")
        chapter.wrong_answers[i] = WrongAnswer(**{**w.__dict__, "mode": modes.pop()})
    gpu_answers = {w.name for w in chapter.wrong_answers if w.mode == "gpu"}
    for check_id, on, _ in chapter.compared_lines:
        if check_id not in by_id or by_id[check_id].mode != "gpu":
            raise ManifestError(f"{where}: [lines.{check_id}] names no GPU check")
        if on != "reference" and on not in gpu_answers:
            raise ManifestError(f"{where}: [lines.{check_id}]: on = {on!r}; say reference or "
                                f"a GPU wrong answer of this chapter")


def load(root, folder, instructors=True):
    """Chapter `folder` of the workbook at `root`: its grader/ manifest, and (with
    `instructors`) its solutions/ manifest where the tree has one. ManifestError names the file,
    the section and the key of whatever is wrong."""
    chapter = Chapter(folder)
    grader_path = os.path.join(root, "grader", folder, "chapter.ini")
    _grader_part(chapter, grader_path)
    paths = [grader_path]
    theirs = os.path.join(root, "solutions", folder, "chapter.ini")
    if instructors and os.path.isfile(theirs):
        _instructors_part(chapter, theirs)
        paths.append(theirs)
    _consistent(chapter, paths)
    return chapter


def hidden_part(text):
    """The hidden checks' sections of an instructors' manifest `text`, as a manifest of their
    own: what official grading adds to the pristine workbook (no wrong answers, no ablations)."""
    parser = configparser.RawConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_string(text)
    lines = ["# The hidden checks of official grading (from the instructors' manifest)."]
    for name in parser.sections():
        if name.startswith("check."):
            lines += ["", f"[{name}]"] + [f"{key} = {' '.join(value.split())}"
                                          for key, value in parser[name].items()]
    return "\n".join(lines) + "\n"


def chapters(root):
    """The chapter folders of the workbook at `root` (NN_slug under chapters/), in order."""
    return sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                  if re.fullmatch(r"\d\d_[a-z0-9_]+", d))


def number(x):
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
