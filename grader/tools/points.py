"""A chapter's list of checks: grader/NN_slug/points.tsv, and for official grading the hidden
checks' solutions/NN_slug/hidden_points.tsv. The one reader of the format; the grader owns it,
and the graders' points test, the instructors' grading tool and the lessons' tables of checks use
it.

One line per check of the chapter's grader, tab-separated, in the grader's order:

    MODE  POINTS  CHECK NAME  PASSES WHEN

MODE is host or gpu, POINTS a number >= 0, CHECK NAME the name exactly as its TEST_CASE spells
it, and PASSES WHEN what the check holds the student's work to, in a phrase (the lesson's table
"What the grader checks" is made from it, so the three lists cannot drift apart). Lines starting
with # are comments. A guard that the shipped skeleton already passes is worth 0 points.
"""
import os
import re
from dataclasses import dataclass


class PointsError(Exception):
    """A points file that is malformed, or that does not match its grader."""


@dataclass(frozen=True)
class Check:
    mode: str         # "host" or "gpu"
    points: float
    name: str         # the TEST_CASE's name
    passes_when: str  # a phrase for the lesson's table
    hidden: bool      # a hidden check of official grading (hidden_points.tsv)


def load(path, hidden=False):
    """The checks of one points file, in order; PointsError names the file and line of a
    malformed one."""
    checks = []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise PointsError(f"cannot read {path}: {e}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in ("host", "gpu") or not fields[2].strip() \
                or not fields[3].strip():
            raise PointsError(f"{path}:{number}: expected 'host|gpu<TAB>points<TAB>check "
                              f"name<TAB>passes when', got {len(fields)} fields")
        try:
            points = float(fields[1])
        except ValueError:
            raise PointsError(f"{path}:{number}: points '{fields[1]}' is not a number") from None
        if points < 0 or points != points:
            raise PointsError(f"{path}:{number}: points must be a number >= 0")
        checks.append(Check(fields[0], points, fields[2], fields[3], hidden))
    names = [c.name for c in checks]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PointsError(f"{path}: a check is listed twice: {twice[0]}")
    return checks


def chapter_checks(root, chapter):
    """Every check of a chapter of the workbook at `root`: its points.tsv, then its hidden
    checks where the tree has them (an instructor's checkout, or the pristine copy official
    grading builds)."""
    checks = load(os.path.join(root, "grader", chapter, "points.tsv"))
    hidden = os.path.join(root, "solutions", chapter, "hidden_points.tsv")
    if os.path.isfile(hidden):
        checks += load(hidden, hidden=True)
    names = [c.name for c in checks]
    if len(set(names)) != len(names):
        raise PointsError(f"{chapter}: a hidden check has the name of a check of points.tsv")
    return checks


def number(x):
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def lesson_table(checks, chapter_id):
    """The lesson's markdown table of the chapter's checks: what each checks, where, its points
    and when it passes. Hidden checks are not listed one by one; a line says that official
    grading adds them."""
    prefix = re.compile(r"^" + re.escape(chapter_id) + r"\s+")
    lines = ["| check | where | points | passes when |", "|---|---|---|---|"]
    for c in checks:
        if c.hidden:
            continue
        lines.append(f"| {prefix.sub('', c.name)} | {'GPU' if c.mode == 'gpu' else 'host'} | "
                     f"{number(c.points)} | {c.passes_when} |")
    hidden = [c for c in checks if c.hidden]
    if hidden:
        total = number(sum(c.points for c in hidden))
        lines.append("")
        lines.append(f"Official grading adds {len(hidden)} hidden "
                     f"check{'s' if len(hidden) != 1 else ''} worth {total} "
                     f"point{'s' if total != '1' else ''}: the same functions and kernels on "
                     f"cases this workbook does not run (other sizes, other inputs, other "
                     f"seeds). Write for the contract, not for the cases you see.")
    return "\n".join(lines)
