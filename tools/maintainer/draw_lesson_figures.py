#!/usr/bin/env python3
"""Draws the lessons' bank maps as SVG, with the analyser, from each figure list:

    tools/maintainer/draw_lesson_figures.py ANALYZER SOURCE_ROOT            write every figure
    tools/maintainer/draw_lesson_figures.py ANALYZER SOURCE_ROOT --check    fail if one is stale or unused

(`ninja -C build figures` runs the first; the host test `lesson figures are up to date` the
second.) A figure list is `chapters/<folder>/figures/figures.tsv` or `docs/figures/figures.tsv`,
one figure per line, tab-separated (# starts a comment):

    FILE.svg   LEFT CAPTION   LEFT ARGUMENTS   [RIGHT CAPTION   RIGHT ARGUMENTS]
    FILE.svg   drawn by   SCRIPT

ARGUMENTS are what `analyze_smem_access` takes ('--width 16 t*16'; the expression is the last
word and may not hold spaces); SCRIPT, a Python file by its path from the source root, prints
the SVG. The rules (one file name over all lists, every figure shown by the page beside it and
every SVG it shows listed): "A figure in every lesson" in docs/instructors/chapters.md.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

GAP = 24  # pixels between the two halves of a figure


def read_list(path):
    """The figures of one list: (file, [(caption, args), ...] or a drawing script's path)."""
    figures = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) == 3 and cells[1] == "drawn by" and cells[0].endswith(".svg"):
                figures.append((cells[0], cells[2], f"{path}:{number}"))
                continue
            if len(cells) not in (3, 5) or not cells[0].endswith(".svg"):
                sys.exit(f"{path}:{number}: expected FILE.svg, a caption and arguments, and "
                         f"optionally a second caption and arguments, tab-separated; got "
                         f"{len(cells)} cells")
            halves = [(cells[1], shlex.split(cells[2]))]
            if len(cells) == 5:
                halves.append((cells[3], shlex.split(cells[4])))
            figures.append((cells[0], halves, f"{path}:{number}"))
    return figures


def draw_script(root, script, where):
    """The SVG a drawing script prints."""
    result = subprocess.run([sys.executable, os.path.join(root, script)], capture_output=True,
                            text=True)
    if result.returncode != 0 or not result.stdout.startswith("<svg "):
        sys.exit(f"{where}: {script} failed or printed no SVG:\n{result.stderr}")
    return result.stdout


def draw_one(analyzer, caption, args, where):
    result = subprocess.run([analyzer, "--svg", "-"] + args, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{where}: analyze_smem_access {' '.join(args)} failed:\n{result.stderr}")
    svg = result.stdout
    size = re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    if not size:
        sys.exit(f"{where}: the analyser's SVG has no size")
    return svg, int(size.group(1)), int(size.group(2)), caption


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def compose(halves):
    """One SVG: each half under its caption, one above the other."""
    caption_height = 22
    width = max(h[1] for h in halves)
    height = sum(h[2] + caption_height for h in halves) + GAP * (len(halves) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="monospace">']
    y = 0
    for svg, w, h, caption in halves:
        out.append(f'<text x="4" y="{y + 15}" font-size="14" font-weight="bold">'
                   f'{escape(caption)}</text>')
        inner = re.sub(r"^<svg ", f'<svg x="0" y="{y + caption_height}" ', svg, count=1)
        out.append(inner.strip())
        y += h + caption_height + GAP
    out.append("</svg>")
    return "\n".join(out) + "\n"


def figure_lists(root):
    lists = sorted(glob.glob(os.path.join(root, "chapters", "*", "figures", "figures.tsv")))
    lists.append(os.path.join(root, "docs", "figures", "figures.tsv"))
    return [path for path in lists if os.path.isfile(path)]


def page_of(list_path):
    """The page that shows a list's figures."""
    folder = os.path.dirname(os.path.dirname(list_path))
    if os.path.basename(folder) == "docs":
        return os.path.join(folder, "analyzer.md")
    return os.path.join(folder, "README.md")


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--check"):
        sys.exit(__doc__)
    analyzer, root = sys.argv[1], sys.argv[2]
    check = len(sys.argv) == 4
    problems = []
    written = 0
    names = {}  # Doxygen finds an image by its file name alone: names must be unique
    for list_path in figure_lists(root):
        folder = os.path.dirname(list_path)
        page = page_of(list_path)
        with open(page, encoding="utf-8") as f:
            shown = set(re.findall(r"\]\(figures/([^)\s]+\.svg)\)", f.read()))
        listed = set()
        for name, halves, where in read_list(list_path):
            listed.add(name)
            if name in names:
                problems.append(f"{where}: {name} is also a figure of {names[name]}")
            names[name] = where
            if isinstance(halves, str):
                svg = draw_script(root, halves, where)
            else:
                svg = compose([draw_one(analyzer, c, a, where) for c, a in halves])
            target = os.path.join(folder, name)
            rel = os.path.relpath(target, root)
            if check:
                try:
                    with open(target, encoding="utf-8") as f:
                        if f.read() != svg:
                            problems.append(f"{rel} is out of date with {where}")
                except FileNotFoundError:
                    problems.append(f"{rel} is missing ({where})")
            else:
                with open(target, "w", encoding="utf-8") as f:
                    f.write(svg)
                written += 1
            if name not in shown:
                problems.append(f"{rel} is not shown by {os.path.relpath(page, root)}")
        for name in sorted(shown - listed):
            problems.append(f"{os.path.relpath(page, root)} shows figures/{name}, which "
                            f"{os.path.relpath(list_path, root)} does not list")
        for svg_file in glob.glob(os.path.join(folder, "*.svg")):
            if os.path.basename(svg_file) not in listed:
                problems.append(f"{os.path.relpath(svg_file, root)} is on no figure list")
    for problem in problems:
        print(problem)
    if problems:
        if check:
            print("Regenerate the figures with: ninja -C build figures")
        sys.exit(1)
    print(f"{'checked' if check else 'wrote'} the figures of {len(figure_lists(root))} lists"
          + ("" if check else f" ({written} files)"))


if __name__ == "__main__":
    main()
