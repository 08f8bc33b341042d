#!/usr/bin/env python3
"""Writes the workbook students get: a .tar.gz of the committed workbook (git HEAD), made of the
folders that are for students and nothing else.

    tools/instructor/make_handout.py SOURCE_ROOT OUTPUT.tar.gz [--list]
                                                           (or: ninja -C build handout)

Who may read a file is said by where it lives, so the rule is a short list of what ships:

- chapters/          the lessons, interfaces, exercises and figures;
- grader/            what the student's own run needs (graders, harness, their build scripts),
                     holding no answer;
- common/            the library the graders, tools and kernels share;
- docs/              the documentation, less docs/instructors/;
- tools/student/     the analyser and the bank-model validator (built by tools/meson.build);
- the build files (meson.build, meson_options.txt), .clang-format and the README, less its
  instructors' parts (blocks between `<!-- instructors -->` and `<!-- /instructors -->`).

Everything else stays with the instructors: solutions/ (the reference solutions, and for each
chapter its wrong answers, lesson checks, answer key, hidden checks and measurements),
tools/instructor/, tools/maintainer/, docs/instructors/, CI, and the history. The skeletons are
the committed ones, whatever an instructor's working tree holds. The archive unpacks into
`workbook/`, which builds in student mode. With --list it also prints what it holds, by folder.
"""
import collections
import io
import os
import re
import subprocess
import sys
import tarfile

SHIPPED_FOLDERS = ("chapters/", "grader/", "common/", "docs/", "tools/student/")
SHIPPED_FILES = ("README.md", "meson.build", "meson_options.txt", ".clang-format",
                 "tools/meson.build")
KEPT_BACK = ("docs/instructors/",)


def shipped(path):
    """True when the file at `path` (relative to the workbook's root) is for students."""
    if path.startswith(KEPT_BACK):
        return False
    return path in SHIPPED_FILES or path.startswith(SHIPPED_FOLDERS)


def student_readme(text):
    """The README without its instructors' blocks."""
    return re.sub(r"<!-- instructors -->.*?<!-- /instructors -->\n?", "", text, flags=re.S)


def committed_tree(root):
    """The committed HEAD of `root` as a tar archive (bytes)."""
    try:
        return subprocess.run(["git", "-C", root, "archive", "--format=tar", "HEAD"],
                              check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"make_handout.py: {root} is not a git checkout with a commit "
                 f"({getattr(e, 'stderr', b'').decode().strip() or e}); the hand-out is made "
                 f"from the committed workbook so that no filled-in exercise can leak into it")


def listing(names):
    """What a hand-out holds, by folder: `folder  N files`, one line each."""
    counts = collections.Counter(os.path.dirname(n[len("workbook/"):]) or "." for n in names)
    return "\n".join(f"  {folder:<48} {count} file{'s' if count != 1 else ''}"
                     for folder, count in sorted(counts.items()))


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) != 2:
        sys.exit(__doc__)
    root, output = args
    archive = committed_tree(root)
    changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True).stdout.strip()
    if changed:
        print("note: uncommitted changes are not in the hand-out:\n" + changed, file=sys.stderr)
    names = []
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as source, \
            tarfile.open(output, "w:gz") as target:
        for member in source.getmembers():
            if not member.isfile() or not shipped(member.name):
                continue
            data = source.extractfile(member).read()
            if member.name == "README.md":
                data = student_readme(data.decode()).encode()
            info = tarfile.TarInfo("workbook/" + member.name)
            info.size, info.mode, info.mtime = len(data), member.mode, member.mtime
            target.addfile(info, io.BytesIO(data))
            names.append(info.name)
    print(f"hand-out written to {output}: {len(names)} files, none of the instructors'")
    if "--list" in sys.argv[1:]:
        print(listing(names))


if __name__ == "__main__":
    main()
