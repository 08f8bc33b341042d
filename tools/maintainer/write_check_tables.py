#!/usr/bin/env python3
"""Writes what the hand-out derives from the solution side: each lesson's table of checks from
its chapter's manifest, and the chapters' answer digests from their answer keys.

The tables' one source is the chapter's manifests (docs/instructors/chapters.md says why).

    write_check_tables.py SOURCE_ROOT            rewrite every lesson's table
    write_check_tables.py SOURCE_ROOT --check    fail, naming the lesson, where one differs
    write_check_tables.py --answer-digests GRADER [GRADER ...]

The digests (grader/NN_slug/answer_digests.hpp) are rewritten by each solution-mode grader's
answer key (`GRADER lesson [digests]` with WORKBOOK_WRITE_ANSWER_DIGESTS set); `ninja -C
<solution build> answer-digests` runs it: rebuild and commit what it wrote.

In a lesson the table sits between `<!-- checks: ... -->` and `<!-- /checks -->`; the first run
on a lesson without the markers replaces the table that follows its "What the grader checks"
heading.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "grader", "tools"))
import manifest  # noqa: E402
import manifest_views  # noqa: E402

BEGIN = "<!-- checks: made from grader/{folder}/chapter.ini; edit that file, not this table -->"
END = "<!-- /checks -->"


def table_block(root, folder):
    table = manifest_views.lesson_table(manifest.load(root, folder))
    return BEGIN.format(folder=folder) + "\n" + table + "\n" + END


def replace(text, block, folder):
    """The lesson with its table of checks replaced by `block`, or None when the lesson has no
    place for one."""
    marked = re.compile(r"<!-- checks:.*?-->.*?" + re.escape(END), re.S)
    if marked.search(text):
        return marked.sub(lambda _: block, text, count=1)
    heading = re.search(r"^## \d+\. What the grader checks\n\n", text, re.M)
    if not heading:
        return None
    start = heading.end()
    lines = text[start:].split("\n")
    count = 0
    while count < len(lines) and lines[count].startswith("|"):
        count += 1
    if count == 0:
        return None
    rest = "\n".join(lines[count:])
    return text[:start] + block + ("\n" + rest if rest else "\n")


def write_answer_digests(graders):
    env = dict(os.environ, WORKBOOK_WRITE_ANSWER_DIGESTS="1")
    status = 0
    for grader in graders:
        run = subprocess.run([grader, "lesson", "[digests]"], env=env, capture_output=True,
                             text=True)
        wrote = [line.strip() for line in run.stdout.splitlines() if "wrote " in line]
        print(f"{os.path.basename(grader)}: " + ("; ".join(wrote) if wrote else "wrote nothing"))
        if not wrote:
            print(run.stdout[-2000:] + run.stderr[-2000:])
            status = 1
    return status


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--answer-digests":
        return write_answer_digests(sys.argv[2:])
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--check") or \
            not os.path.isdir(os.path.join(sys.argv[1], "chapters")):
        sys.exit(f"{__doc__}\n(the first argument must be the workbook's source root)")
    root, check = sys.argv[1], len(sys.argv) == 3
    folders = manifest.chapters(root)
    problems = []
    for folder in folders:
        path = os.path.join(root, "chapters", folder, "README.md")
        text = open(path, encoding="utf-8").read()
        try:
            block = table_block(root, folder)
        except manifest.ManifestError as e:
            problems.append(str(e))
            continue
        new = replace(text, block, folder)
        if new is None:
            problems.append(f"{path}: no '## N. What the grader checks' section with a table "
                            f"(or the {BEGIN.split(':')[0]}: ... --> markers) to hold the checks")
        elif new != text:
            if check:
                problems.append(f"{path}: its table of checks is not grader/{folder}/chapter.ini's;"
                                f" run tools/maintainer/write_check_tables.py {root}")
            else:
                open(path, "w", encoding="utf-8").write(new)
                print(f"wrote the table of checks of {path}")
    for p in problems:
        print(p)
    if check and not problems:
        print(f"{len(folders)} lessons: each table of checks is its manifest's")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
