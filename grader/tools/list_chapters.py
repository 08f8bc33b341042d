#!/usr/bin/env python3
"""Prints the workbook's chapters (folders NN_slug under chapters/), one per line, in order.

    list_chapters.py SOURCE_ROOT student|solution [CHAPTER ...]

The folder name is the chapter's only name: the build derives everything else from it, so each
chapter must hold the files it implies. A missing one is an error that names it (printed on
stderr, which meson shows), so that a half-added chapter cannot silently drop out of the build.
A workbook handed out without solutions/ builds in student mode. With CHAPTER arguments (the
meson option -Dchapters), only those chapters are listed; a name that is no chapter is an error.
"""
import os
import re
import sys


def required_files(root_of_files, chapter, mode):
    slug = chapter[3:]
    files = [f"chapters/{chapter}/README.md", f"chapters/{chapter}/{slug}.cuh",
             f"chapters/{chapter}/{slug}_exercise.cu"]
    files += [f"grader/{chapter}/{name}" for name in (
        "meson.build", "host_checks.cpp", "gpu_checks.cpp", "device_probes.cu", "thresholds.hpp",
        "points.tsv")]
    if mode == "solution":  # the instructors' folder; a hand-out has none
        files += [f"solutions/{chapter}/{name}" for name in (
            f"{slug}_exercise.cu", "lesson_checks.cpp", "wrong_answers.ini")]
    hidden = os.path.join(root_of_files, "solutions", chapter, "hidden_checks.cpp")
    if os.path.isfile(hidden):  # official grading's hidden checks come with their points
        files.append(f"solutions/{chapter}/hidden_points.tsv")
    return files


def main(argv):
    if len(argv) < 3 or argv[2] not in ("student", "solution"):
        sys.exit(__doc__)
    root, mode, wanted = argv[1], argv[2], argv[3:]
    chapters = sorted(d for d in os.listdir(os.path.join(root, "chapters"))
                      if re.fullmatch(r"\d\d_[a-z0-9_]+", d))
    for name in wanted:
        if name not in chapters:
            sys.exit(f"-Dchapters: '{name}' is not a chapter; the chapters are {', '.join(chapters)}")
    if wanted:
        chapters = [c for c in chapters if c in wanted]
    for chapter in chapters:
        if mode == "solution" and not os.path.isdir(os.path.join(root, "solutions", chapter)):
            sys.exit(f"chapter {chapter} has no folder solutions/{chapter}: solution mode "
                     f"(-Dkernels=solution) needs the reference solutions; build the hand-out "
                     f"in student mode")
        for path in required_files(root, chapter, mode):
            if not os.path.isfile(os.path.join(root, path)):
                sys.exit(f"chapter {chapter} has no file {path} (its folder name implies it; "
                         f"see docs/instructors/maintaining.md)")
    print("\n".join(chapters))


if __name__ == "__main__":
    main(sys.argv)
