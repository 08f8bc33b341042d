#!/usr/bin/env python3
"""Starts chapter NN from the chapter template (tools/maintainer/chapter_template/).

    tools/maintainer/new_chapter.py NN SLUG "TITLE" [--root DIR]

Writes chapters/NN_SLUG/, solutions/NN_SLUG/ and grader/NN_SLUG/ under DIR (default: this
workbook): a working chapter in the shape of a typical one (a tile layout, a prediction and a
transpose through shared memory, with its interface, skeleton, solution, host, GPU and lesson
checks, thresholds and wrong answers) that builds at once, fails as a skeleton and passes as a
solution. Replace its content piece by piece, keeping it green; docs/instructors/chapters.md
walks through it. Nothing outside the three folders is touched.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chapter_template")


def fail(message):
    sys.exit(f"new_chapter.py: {message}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("number", help="two digits, e.g. 09")
    parser.add_argument("slug", help="lower-case words joined by _, e.g. tiled_gemm")
    parser.add_argument("title", help='the chapter\'s title, e.g. "Tiled GEMM"')
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        help="the workbook to add it to (default: this one)")
    args = parser.parse_args()
    if not re.fullmatch(r"\d\d", args.number):
        fail(f"the number '{args.number}' is not two digits (write 09, not 9)")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", args.slug):
        fail(f"the slug '{args.slug}' must be lower-case letters, digits and _, starting with a "
             f"letter")
    if not args.title.strip() or "\n" in args.title:
        fail("the title must be one non-empty line")
    if not os.path.isdir(os.path.join(args.root, "chapters")):
        fail(f"{args.root} is not a workbook (it has no chapters/ folder)")
    folder = f"{args.number}_{args.slug}"
    taken = [d for d in os.listdir(os.path.join(args.root, "chapters"))
             if d.startswith(args.number + "_")]
    if taken:
        fail(f"chapter {args.number} exists already: chapters/{taken[0]}")

    values = {"@NN@": args.number, "@SLUG@": args.slug, "@TITLE@": args.title.strip()}
    written = []
    for part in ("chapters", "solutions", "grader"):
        source = os.path.join(TEMPLATE, part, "NN_SLUG")
        target = os.path.join(args.root, part, folder)
        if os.path.exists(target):
            fail(f"{part}/{folder} exists already")
        os.makedirs(target)
        for directory, _, names in sorted(os.walk(source)):
            sub = os.path.relpath(directory, source)
            os.makedirs(os.path.join(target, sub), exist_ok=True)
            for name in sorted(names):
                text = open(os.path.join(directory, name)).read()
                for key, value in values.items():
                    text = text.replace(key, value)
                left = re.findall(r"@[A-Z]+@", text)
                if left:
                    fail(f"template file {part}/NN_SLUG/{os.path.join(sub, name)} has unknown "
                         f"placeholders {left}")
                # File names: SLUG is the slug, and a figure's chNN- prefix the chapter's number.
                renamed = name.replace("SLUG", args.slug).replace("chNN-", f"ch{args.number}-")
                path = os.path.normpath(os.path.join(target, sub, renamed))
                with open(path, "w") as out:
                    out.write(text)
                written.append(path)
    formatter = shutil.which("clang-format")
    if formatter:
        sources = [p for p in written if p.endswith((".cpp", ".hpp", ".cu", ".cuh"))]
        subprocess.run([formatter, "-i", "--style=file"] + sources, cwd=args.root, check=False)
    print(f"chapter {folder} started from the template:")
    for path in written:
        print("  " + os.path.relpath(path, args.root))
    print(f"""
Next:
  meson setup --reconfigure build-solution -Dkernels=solution -Dchapters={folder}
  ninja -C build-solution figures      (draws the lesson's bank maps, figures/figures.tsv)
  meson test -C build-solution
Its lesson checks say that its measured figures are not checked until its first GPU run:
run tools/maintainer/run_gpu_suite.sh on the H200 and commit solutions/{folder}/measurements/.
Then add its line to the README's chapter table:
  | [{args.number} {args.title.strip().lower()}](chapters/{folder}/README.md) | ... | ready |""")


if __name__ == "__main__":
    main()
