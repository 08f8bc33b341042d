#!/usr/bin/env python3
"""Holds each chapter's skeleton and reference solution to one text: every kernel written once.

    tools/maintainer/check_mirrors.py SOURCE_ROOT [--chapters NN_slug,NN_slug,...]

The skeleton chapters/NN_slug/slug_exercise.cu and the reference solution
solutions/NN_slug/slug_exercise.cu may differ only inside the regions where the student writes,
each between an opening and a closing marker line (indentation allowed, the label optional):

    // ---- your code: exercise 2b ----
    ...
    // ---- end of your code ----

Each file needs at least one region; regions do not nest. What a failure names:
docs/instructors/maintaining.md. Exit 0 when every chapter holds, 1 otherwise. --chapters checks
only the chapters named (folder names; the chapter template's NN_SLUG too); by default every
chapter found in chapters/ or solutions/. Needs no git.
"""
import argparse
import os
import re
import sys

OPEN = re.compile(r"[ \t]*// ---- your code(: [^\r\n]*[^ \r\n])? ----[ \t]*\r?\n?")
CLOSE = re.compile(r"[ \t]*// ---- end of your code ----[ \t]*\r?\n?")
LOOKS_LIKE_MARKER = re.compile(r"[ \t]*//\s*-+\s*(your code|end of your code)\b")
CHAPTER = re.compile(r"\d\d_[a-z0-9_]+")


class MarkerError(Exception):
    """A marker out of place, or a file without any region."""


def outside(path, shown):
    """The file's lines outside the regions, each (line number, kind, text): kind is "text",
    "open" or "close" (the marker lines); and how many lines the file has. Raises MarkerError,
    naming `shown` and the line, for a marker out of place or a file without any region."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        lines = f.read().splitlines(keepends=True)
    kept, opened_at, regions = [], None, 0
    for number, line in enumerate(lines, 1):
        if OPEN.fullmatch(line):
            if opened_at is not None:
                raise MarkerError(f"{shown}:{number}: a region is opened again, inside the one "
                                  f"opened at line {opened_at} (close that one first)")
            opened_at = number
            regions += 1
            kept.append((number, "open", line))
        elif CLOSE.fullmatch(line):
            if opened_at is None:
                raise MarkerError(f"{shown}:{number}: '// ---- end of your code ----' closes "
                                  f"no region (none is open)")
            opened_at = None
            kept.append((number, "close", line))
        elif LOOKS_LIKE_MARKER.match(line):
            raise MarkerError(f"{shown}:{number}: a marker must be the line "
                              f"'// ---- your code: LABEL ----' or '// ---- end of your code "
                              f"----' (indentation allowed), not: {line.strip()}")
        elif opened_at is None:
            kept.append((number, "text", line))
    if opened_at is not None:
        raise MarkerError(f"{shown}:{opened_at}: the region opened here is never closed "
                          f"('// ---- end of your code ----')")
    if regions == 0:
        raise MarkerError(f"{shown}: no region where the student writes "
                          f"('// ---- your code: LABEL ----' ... '// ---- end of your code ----')")
    return kept, len(lines)


def visible(line):
    """A line as printed: without its line break, or quoted where only invisible bytes differ."""
    text = line.rstrip("\r\n")
    return text if text == text.rstrip() and "\r" not in line else repr(line)


def compare(skeleton, solution, shown_skeleton, shown_solution):
    """(None, the number of regions) when the two files agree outside their regions, else
    (what differs first, 0)."""
    (ours, our_end), (theirs, their_end) = (outside(skeleton, shown_skeleton),
                                            outside(solution, shown_solution))
    for (n, kind, line), (m, other_kind, other) in zip(ours, theirs):
        if line != other:
            what = "the markers differ" if "text" not in (kind, other_kind) else \
                "a marker on one side only" if kind != other_kind else "outside the regions"
            return (f"{shown_skeleton}:{n} and {shown_solution}:{m} differ ({what}):\n"
                    f"  skeleton: {visible(line)}\n  solution: {visible(other)}"), 0
    if len(ours) != len(theirs):
        longer, shown, rest, end = (ours, shown_skeleton, shown_solution, their_end) \
            if len(ours) > len(theirs) else (theirs, shown_solution, shown_skeleton, our_end)
        n, _, line = longer[min(len(ours), len(theirs))]
        return (f"{shown}:{n} goes on where {rest}:{end} ends (outside the regions):\n"
                f"  {visible(line)}"), 0
    return None, sum(kind == "open" for _, kind, _ in ours)


def chapters_on_disk(root):
    """The chapter folders (NN_slug) of chapters/ and solutions/ under `root`, sorted."""
    found = set()
    for top in ("chapters", "solutions"):
        folder = os.path.join(root, top)
        if os.path.isdir(folder):
            found.update(n for n in os.listdir(folder) if CHAPTER.fullmatch(n))
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", help="the workbook's source root")
    parser.add_argument("--chapters", help="a comma list of chapter folders (default: all)")
    args = parser.parse_args()
    chapters = args.chapters.split(",") if args.chapters else chapters_on_disk(args.root)
    if not chapters:
        sys.exit(f"check_mirrors.py: no chapter folder in {args.root}/chapters or /solutions")
    problems, regions = [], 0
    for chapter in chapters:
        name = f"{chapter[3:]}_exercise.cu"
        shown = [f"{top}/{chapter}/{name}" for top in ("chapters", "solutions")]
        paths = [os.path.join(args.root, s) for s in shown]
        missing = [s for s, p in zip(shown, paths) if not os.path.isfile(p)]
        if missing:
            problems.append(f"{' and '.join(missing)}: missing")
            continue
        try:
            difference, count = compare(paths[0], paths[1], shown[0], shown[1])
        except MarkerError as e:
            difference, count = str(e), 0
        if difference:
            problems.append(difference)
        regions += count
    if problems:
        print("\n".join(problems))
        print(f"check_mirrors.py: {len(problems)} of {len(chapters)} chapters' skeleton and "
              f"solution differ outside the regions where the student writes, or misplace a "
              f"marker: make the text outside the regions one (the skeleton's)")
        return 1
    print(f"check_mirrors.py: {len(chapters)} chapters, {regions} regions: each skeleton and "
          f"its solution are one text outside the regions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
