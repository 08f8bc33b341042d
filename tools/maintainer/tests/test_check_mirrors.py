#!/usr/bin/env python3
"""Host test of tools/maintainer/check_mirrors.py on a copy of one chapter's skeleton and
solution (the smallest pair; no git, no build): the copy passes; a line changed outside a
region fails, naming both files' lines and the line; a line changed inside a region passes; and
each misplaced marker (never closed, opened twice, closing nothing, labelled differently,
malformed, none at all), a line appended and a missing file fail, saying which.

    test_check_mirrors.py SOURCE_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
tool = os.path.join(root, "tools", "maintainer", "check_mirrors.py")


def files_of(chapter):
    """The chapter's skeleton and solution, relative to the source root."""
    return [f"{top}/{chapter}/{chapter[3:]}_exercise.cu" for top in ("chapters", "solutions")]


# The chapter whose two files are the smallest (no chapter named: chapters come and go).
CHAPTER = min((c for c in os.listdir(os.path.join(root, "solutions"))
               if re.fullmatch(r"\d\d_[a-z0-9_]+", c)),
              key=lambda c: sum(os.path.getsize(os.path.join(root, f)) for f in files_of(c)))
SKELETON, SOLUTION = files_of(CHAPTER)
OPEN, CLOSE = "// ---- your code:", "// ---- end of your code ----"

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check, finish  # noqa: E402


def copy_chapter(scratch):
    for s in (SKELETON, SOLUTION):
        os.makedirs(os.path.dirname(os.path.join(scratch, s)), exist_ok=True)
        shutil.copy(os.path.join(root, s), os.path.join(scratch, s))


def first(lines, text, start=0):
    """The index of the first line from `start` that holds `text`."""
    return next(i for i in range(start, len(lines)) if text in lines[i])


def expect(scratch, what, status, *texts):
    done = subprocess.run([sys.executable, tool, scratch, "--chapters", CHAPTER],
                          capture_output=True, text=True)
    said = done.stdout + done.stderr
    check(done.returncode == status and all(t in said for t in texts),
          f"{what}: exit {done.returncode}, want {status} and {texts}; it said:\n{said}")


def edited(what, shown, change, status, *texts):
    """Runs the checker on a fresh copy whose file `shown` `change(lines)` edited in place."""
    with tempfile.TemporaryDirectory() as scratch:
        copy_chapter(scratch)
        with open(os.path.join(scratch, shown), encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        extra = change(lines)
        with open(os.path.join(scratch, shown), "w", encoding="utf-8") as f:
            f.write("".join(lines))
        expect(scratch, what, status, *[t.format(**(extra or {})) for t in texts])


def outside_line(lines):
    i = first(lines, "namespace ch")
    lines[i] = lines[i].replace("{", "{  // drifted")
    return {"n": i + 1, "line": lines[i].rstrip("\n")}


def inside_line(lines):
    i = first(lines, OPEN) + 1
    lines.insert(i, "// a student's note, inside the region\n")


def unclosed(lines):
    i = max(i for i, line in enumerate(lines) if CLOSE in line)
    del lines[i]
    return {"n": max(i for i, line in enumerate(lines) if OPEN in line) + 1}


def opened_twice(lines):
    i = first(lines, OPEN)
    lines.insert(i + 1, lines[i])
    return {"n": i + 2, "was": i + 1}


def closes_nothing(lines):
    i = first(lines, "namespace ch")
    lines.insert(i + 1, CLOSE + "\n")
    return {"n": i + 2}


def relabelled(lines):
    i = first(lines, OPEN)
    lines[i] = lines[i].replace("exercise", "part")
    return {"n": i + 1}


def malformed(lines):
    i = first(lines, CLOSE)
    lines[i] = lines[i].replace("code ----", "code")
    return {"n": i + 1}


def no_region(lines):
    lines[:] = [line for line in lines if OPEN not in line and CLOSE not in line]


def appended(lines):
    lines.append("// one more line, after every region\n")
    return {"n": len(lines)}


def trailing_space(lines):
    i = first(lines, "#include")
    lines[i] = lines[i].rstrip("\n") + " \n"
    return {"n": i + 1}


with tempfile.TemporaryDirectory() as scratch:
    copy_chapter(scratch)
    expect(scratch, "the chapter as committed", 0, "1 chapters")
    os.remove(os.path.join(scratch, SOLUTION))
    expect(scratch, "without the solution", 1, f"{SOLUTION}: missing")

edited("a line changed outside a region of the solution", SOLUTION, outside_line, 1,
       f"{SOLUTION}:{{n}}", "{line}", "outside the regions")
edited("a line changed outside a region of the skeleton", SKELETON, outside_line, 1,
       f"{SKELETON}:{{n}}", "{line}", "outside the regions")
edited("a line added inside a region", SOLUTION, inside_line, 0, "1 chapters")
edited("a region never closed", SKELETON, unclosed, 1, f"{SKELETON}:{{n}}: the region opened "
       "here is never closed")
edited("a region opened twice", SOLUTION, opened_twice, 1,
       f"{SOLUTION}:{{n}}: a region is opened again, inside the one opened at line {{was}}")
edited("a closing marker outside any region", SKELETON, closes_nothing, 1,
       f"{SKELETON}:{{n}}: '{CLOSE}' closes no region")
edited("an opening marker labelled differently", SOLUTION, relabelled, 1,
       f"{SOLUTION}:{{n}}", "the markers differ")
edited("a malformed marker", SOLUTION, malformed, 1, f"{SOLUTION}:{{n}}: a marker must be")
edited("a file without any region", SOLUTION, no_region, 1, f"{SOLUTION}: no region")
edited("a line appended to the skeleton", SKELETON, appended, 1,
       f"{SKELETON}:{{n}} goes on where {SOLUTION}:")
edited("a trailing space outside a region", SOLUTION, trailing_space, 1, f"{SOLUTION}:{{n}}",
       "outside the regions")

finish("check_mirrors.py: passes the mirrored copy and inner edits, and names each drift and "
       "misplaced marker")
