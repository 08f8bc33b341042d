#!/usr/bin/env python3
"""Doxygen's input filter for the Markdown pages: prints a page as the site shows it.

    page_filter.py [--students] --chapters NN_a,NN_b,... PAGE.md
    page_filter.py --layout DOXYGEN OUT.xml     Doxygen's layout, the API apart (write_layout)

- The README's title is "Start here": the site's header already names the workbook.
- With --students, the README without its instructors' parts (the blocks between
  `<!-- instructors -->` and `<!-- /instructors -->`), as the hand-out's README is.
- A lesson (chapters/NN_slug/README.md) ends with links to the lessons before and after it among
  the chapters this site holds (--chapters: the build's), the first and the last to the start
  page. They are added here, not written in the lessons, so that no lesson names a later one: a
  hand-out of the first chapters holds no link to a missing chapter.
- The instructors' pages get their tables drawn from what the project commits, so that no copy
  of a number is typed anywhere: in place of `<!-- thresholds table -->`, every chapter's
  thresholds and their evidence (the manifests and the measurements, through
  grader/tools/manifest_views.py); in place of `<!-- class grading table -->`, the class grading
  bench on 2 cores (tools/maintainer/measurements/2cores-nogpu/class-grading.tsv); in place of
  `<!-- assessment table -->`, each chapter's points by what they certify and its viva's
  accesses (the manifests, tools/instructor/grading/orals.py).

Each figure gets a link that opens it full size. Line numbers stay the source's (removed
blocks leave their blank lines, the lesson links go at the end) above the first figure or table,
so that Doxygen's warnings name the source's lines there.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lesson_links(path, chapters):
    """The line of previous/next links for the lesson at `path`, or "" for another page."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    if parts[-1] != "README.md" or len(parts) < 3 or parts[-3] != "chapters" or \
            parts[-2] not in chapters:
        return ""
    i = chapters.index(parts[-2])

    def link(j):
        if not 0 <= j < len(chapters):
            return "[the workbook](../../README.md)"
        with open(os.path.join(ROOT, "chapters", chapters[j], "README.md"),
                  encoding="utf-8") as f:
            title = f.readline().lstrip("# ").strip()
        return f"[{title}](../{chapters[j]}/README.md)"
    return f"\n\nPrevious: {link(i - 1)} · Next: {link(i + 1)}\n"


def class_grading_table():
    """The 2-core class grading bench as a table (bench_class_grading.py writes its file)."""
    path = os.path.join(ROOT, "tools", "maintainer", "measurements", "2cores-nogpu",
                        "class-grading.tsv")
    with open(path, encoding="utf-8") as f:
        v = {q: float(x) for q, x, *_ in (line.split("\t") for line in f
                                            if line.strip() and not line.startswith("#"))}
    rows = [("the pristine workbook, once per class", f"{v['pristine.build_seconds']:.0f} s"),
            ("a submission of every chapter done: build", f"{v['submission.build_seconds']:.0f} s"),
            ("the same: checks", f"{v['submission.check_seconds']:.0f} s"),
            ("a class (7 chapters in 10 done): per submission",
             f"{v['class.seconds_per_submission']:.0f} s (class of {v['class.size']:.0f})"),
            ("a class of 200, extrapolated",
             f"{v['class.for_200_submissions_seconds'] / 60:.0f} minutes")]
    return "\n".join(["| 2 cores, no GPU, host checks, 12 chapters | seconds |", "|---|---|"] +
                      [f"| {what} | {value} |" for what, value in rows])


def assessment_table():
    """Each chapter's points by what they certify (the manifests' kinds) and the accesses its viva
    asks about (tools/instructor/grading/orals.py)."""
    sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
    sys.path.insert(0, os.path.join(ROOT, "tools", "instructor"))
    import manifest  # noqa: E402
    from grading import orals  # noqa: E402
    columns = [("host", "prediction"), ("host", "function"), ("host", "layout"),
               ("gpu", "prediction"), ("gpu", "function"), ("gpu", "kernel"), ("gpu", "speed")]
    sys.path.insert(0, os.path.join(ROOT, "tools", "maintainer"))
    import copied_answers  # noqa: E402
    import copy_attacks  # noqa: E402
    rows = ["| chapter | " + " | ".join(f"{m if m == 'host' else 'GPU'} {k}" for m, k in columns)
            + " | of them hidden | what a table may earn | the viva's accesses |",
            "|---|" + "---|" * (len(columns) + 3)]
    for folder in manifest.chapters(ROOT):
        checks = manifest.load(ROOT, folder).checks
        points = [sum(c.points for c in checks if (c.mode, c.kind) == col) for col in columns]
        hidden = sum(c.points for c in checks if c.hidden)
        # Measured where a chapter's cases vary (its copied-answers test): at most, on average.
        copying = ", ".join(f"{route} {100 * copied_answers.MOST_COPIED:.0f}%"
                            for route in ("classmate", "revealed")) \
            if os.path.isfile(os.path.join(ROOT, "grader", folder, "variant_cases.cpp")) \
            else "not measured (no variant cases)"
        # The local-runs attack (check_course_readiness.py grades it): a table of what the local
        # runs ask earns a check of functions and layouts whose whole domain they ask, every one.
        functions = [i for i in copy_attacks.load_items(ROOT, folder)
                     if isinstance(i, copy_attacks.Function)]
        asked_beyond = {i.check for i in functions if i.local}
        whole_ids = {c.id for c in checks if c.kind in ("function", "layout")
                     and c.name in {i.check for i in functions} - asked_beyond}
        tabled = sum(c.points for c in checks
                     if c.id in whole_ids or set(c.certifies) & whole_ids)
        host = sum(c.points for c in checks if c.mode == "host")
        copying += f"; a table of the local runs {tabled:g} of {host:g} host points"
        rows.append(f"| {folder} | " + " | ".join(f"{p:g}" if p else "" for p in points)
                    + f" | {hidden:g} | {copying} | "
                    + f"{', '.join(orals.VIVA.get(folder[:2], orals.VIVA_OTHERWISE))} |")
    return "\n".join(rows)


def write_layout(doxygen, out):
    """Doxygen's own layout, but with the API's pages (namespaces, classes, files) in one group of
    the navigation tree, after the lessons and apart from them; the kinds of page C++ code
    without concepts, interfaces, structs or exceptions does not make are hidden (the group's
    page would link to them)."""
    subprocess.run([doxygen, "-l", os.path.abspath(out)], check=True, capture_output=True)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r'(<tab type="(concepts|interfaces|structs|exceptions)" visible=")yes', r"\1no",
                  text)
    start, end = text.index('    <tab type="namespaces"'), text.index('    <tab type="examples"')
    text = (text[:start] + '    <tab type="usergroup" visible="yes" title="The interfaces (API)">\n'
            + text[start:end] + "    </tab>\n" + text[end:])
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    args = argv[1:]
    if len(args) == 3 and args[0] == "--layout":
        write_layout(args[1], args[2])
        return
    students = "--students" in args
    args = [a for a in args if a != "--students"]
    if len(args) != 3 or args[0] != "--chapters":
        sys.exit(__doc__)
    chapters, path = sorted(c for c in args[1].split(",") if c), args[2]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if os.path.abspath(path) == os.path.join(ROOT, "README.md"):  # the header names the workbook
        text = re.sub(r"\A# .*\n", "# Start here\n", text, count=1)
    if students:
        text = re.sub(r"<!-- instructors -->.*?<!-- /instructors -->",
                      lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    marker = "<!-- thresholds table -->"
    if marker in text:
        sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
        import manifest_views  # noqa: E402
        text = text.replace(marker, manifest_views.threshold_table(ROOT))
    # A suite's name in a command is not the chapter's namespace: no autolink (Doxygen drops
    # the %, inside a code span too).
    text = re.sub(r"(`[^`\n]*--suite )(ch\d\d\b)", r"\1%\2", text)
    # Each figure can be opened full size (the site holds it under its own name).
    text = re.sub(r"^(!\[.*\]\((?:[\w./-]*/)?([\w.-]+\.svg)\))$",
                  r"\1\n\n[Open the figure full size](\2)", text, flags=re.M)
    text = text.replace("<!-- class grading table -->", class_grading_table()) \
        if "<!-- class grading table -->" in text else text
    text = text.replace("<!-- assessment table -->", assessment_table()) \
        if "<!-- assessment table -->" in text else text
    sys.stdout.write(text.rstrip("\n") + "\n" + lesson_links(path, chapters))


if __name__ == "__main__":
    main(sys.argv)
