#!/usr/bin/env python3
"""Writes the workbook students get: a .tar.gz of the committed workbook (git HEAD), made of the
folders that are for students and nothing else.

    tools/instructor/make_handout.py SOURCE_ROOT OUTPUT.tar.gz [--list]
                                                           (or: ninja -C build handout)
    tools/instructor/make_handout.py SOURCE_ROOT --class-out DIR --roster ROSTER.csv
                                     --secret-file SECRET

The first is the self-study hand-out: variant 0, the workbook's own graded cases, the same for
everyone. The second makes a class's: DIR/<student>.tar.gz for every student of the roster (a
CSV of student ids; see grading/variants.py), each with a VARIANT file saying whose it is and
its variant, a keyed hash of the id with the course secret (which never leaves the
instructors), and DIR/variants.csv listing them for the instructors. Every chapter draws its
graded cases from the variant; tools/instructor/grade computes it again from the same roster and
secret, and refuses a submission whose VARIANT says otherwise.

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
import argparse
import collections
import csv
import io
import os
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grading import variants  # noqa: E402

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


def shipped_members(root):
    """[(name in the archive, TarInfo, bytes)] of the committed workbook's files for students."""
    archive = committed_tree(root)
    changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True).stdout.strip()
    if changed:
        print("note: uncommitted changes are not in the hand-out:\n" + changed, file=sys.stderr)
    members = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as source:
        for member in source.getmembers():
            if not member.isfile() or not shipped(member.name):
                continue
            data = source.extractfile(member).read()
            if member.name == "README.md":
                data = student_readme(data.decode()).encode()
            members.append((member, data))
    return members


def write_archive(output, members, extra=()):
    """Writes the hand-out `output` from `members`, plus `extra` [(path, text)]; returns the
    names it holds."""
    names = []
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    temporary = output + ".partial"
    with tarfile.open(temporary, "w:gz") as target:
        files = [(m.name, m.mode, m.mtime, data) for m, data in members]
        mtime = max((f[2] for f in files), default=0)
        files += [(path, 0o644, mtime, text.encode()) for path, text in extra]
        for name, mode, when, data in files:
            info = tarfile.TarInfo("workbook/" + name)
            info.size, info.mode, info.mtime = len(data), mode, when
            target.addfile(info, io.BytesIO(data))
            names.append(info.name)
    os.replace(temporary, output)
    return names


def class_handouts(root, out, roster_path, secret_path):
    """One hand-out per student of the roster, each with its VARIANT; DIR/variants.csv."""
    try:
        roster = variants.Roster.read(roster_path, secret_path)
    except variants.VariantError as e:
        sys.exit(f"make_handout.py: {e}; no hand-out was written")
    members = shipped_members(root)
    os.makedirs(out, exist_ok=True)
    for student in roster.students:
        write_archive(os.path.join(out, f"{student}.tar.gz"), members,
                      [("VARIANT", variants.variant_file(student, roster.variants[student]))])
    listing_path = os.path.join(out, "variants.csv")
    with open(listing_path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["student", "variant"])
        writer.writerows([s, roster.variants[s]] for s in roster.students)
    print(f"{len(roster.students)} hand-outs written to {out}/ (one per student of "
          f"{roster_path}, each with its own variant; {listing_path} lists them, for the "
          f"instructors only)")


def main():
    parser = argparse.ArgumentParser(
        usage="%(prog)s SOURCE_ROOT OUTPUT.tar.gz [--list]\n"
              "       %(prog)s SOURCE_ROOT --class-out DIR --roster CSV --secret-file FILE",
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("root")
    parser.add_argument("output", nargs="?")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--class-out")
    parser.add_argument("--roster")
    parser.add_argument("--secret-file")
    args = parser.parse_args()
    if args.class_out or args.roster or args.secret_file:
        missing = [o for o, v in (("--class-out", args.class_out), ("--roster", args.roster),
                                  ("--secret-file", args.secret_file)) if not v]
        if missing or args.output:
            parser.error("a class's hand-outs need --class-out DIR, --roster CSV and "
                         "--secret-file FILE (and no OUTPUT)" +
                         (f"; missing: {', '.join(missing)}" if missing else ""))
        class_handouts(args.root, args.class_out, args.roster, args.secret_file)
        return
    if not args.output:
        parser.error("name the hand-out to write (OUTPUT.tar.gz)")
    names = write_archive(args.output, shipped_members(args.root))
    print(f"hand-out written to {args.output}: {len(names)} files, none of the instructors'")
    if args.list:
        print(listing(names))


if __name__ == "__main__":
    main()
