#!/usr/bin/env python3
"""Writes the workbook students get: a .tar.gz of the committed workbook (git HEAD) without the
solutions, the maintainers' checks, the history or any build output.

    tools/make_handout.py SOURCE_ROOT OUTPUT.tar.gz      (or: ninja -C build handout)

Left out: solutions/; each chapter's wrong_answers.ini (its edits quote the solutions) and
lesson_checks.cpp (its checks compute the graded answers); the chapter template, the
maintainers' tools and the instructors' grading tools (tools/grade, tools/run_gpu_grading.py);
CI. The README keeps its student parts: blocks between `<!-- instructors -->` and
`<!-- /instructors -->` are removed. The skeletons are the committed ones, whatever an
instructor's working tree holds. The archive unpacks into `workbook/`, which
builds in student mode.
"""
import io
import os
import re
import subprocess
import sys
import tarfile

LEFT_OUT = [
    r"solutions/.*",
    r"grader/\d\d_[^/]+/wrong_answers\.ini",
    r"grader/\d\d_[^/]+/lesson_checks\.cpp",
    r"tools/chapter_template/.*",
    r"tools/(new_chapter|check_chapter_template|check_course_readiness|make_handout)\.py",
    r"tools/grade",
    r"tools/run_gpu_grading\.py",
    r"tools/grading/.*",
    r"tools/tests/(test_grading|grading_ci)\.py",
    r"tools/tests/start_slurm\.sh",
    r"grader/tools/check_points\.py",
    r"\.ci/.*",
    r"\.gitignore",
]


def student_readme(text):
    """The README without its instructors' blocks."""
    return re.sub(r"<!-- instructors -->.*?<!-- /instructors -->\n?", "", text, flags=re.S)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, output = sys.argv[1], sys.argv[2]
    try:
        archive = subprocess.run(["git", "-C", root, "archive", "--format=tar", "HEAD"],
                                 check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"make_handout.py: {root} is not a git checkout with a commit "
                 f"({getattr(e, 'stderr', b'').decode().strip() or e}); the hand-out is made "
                 f"from the committed workbook so that no filled-in exercise can leak into it")
    changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True).stdout.strip()
    if changed:
        print("note: uncommitted changes are not in the hand-out:\n" + changed, file=sys.stderr)
    left_out = re.compile("|".join(f"(?:{p})" for p in LEFT_OUT))
    kept = 0
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as source, \
            tarfile.open(output, "w:gz") as target:
        for member in source.getmembers():
            if not member.isfile() or left_out.fullmatch(member.name):
                continue
            data = source.extractfile(member).read()
            if member.name == "README.md":
                data = student_readme(data.decode()).encode()
            info = tarfile.TarInfo("workbook/" + member.name)
            info.size, info.mode, info.mtime = len(data), member.mode, member.mtime
            target.addfile(info, io.BytesIO(data))
            kept += 1
    print(f"hand-out written to {output}: {kept} files, no solutions")


if __name__ == "__main__":
    main()
