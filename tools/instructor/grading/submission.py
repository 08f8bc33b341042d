"""What a student handed in: only the exercise files are taken from it.

A submission is a folder or an archive (.tar, .tar.gz, .tgz, .zip) of a hand-out tree, or of
just the exercise files. A file named `<slug>_exercise.cu` after a chapter of the workbook is
that chapter's exercise; the one under `chapters/NN_slug/` wins when there are several. Every
other file is ignored, and listed in the report.
"""
import hashlib
import io
import os
import re
import tarfile
import zipfile

ARCHIVES = (".tar", ".tar.gz", ".tgz", ".zip")


class SubmissionError(Exception):
    """The submission cannot be read at all (a damaged archive, an unsafe path)."""


def submission_id(path):
    name = os.path.basename(os.path.normpath(path))
    for suffix in ARCHIVES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def is_submission(path):
    name = os.path.basename(path)
    if name.startswith("."):
        return False
    return os.path.isdir(path) or name.endswith(ARCHIVES)


def read_files(path):
    """{relative path: bytes} of every regular file of the submission."""
    files = {}

    def add(name, data):
        name = name.replace("\\", "/").lstrip("./")
        if name.startswith("/") or ".." in name.split("/"):
            raise SubmissionError(f"unsafe path in the submission: {name}")
        files[name] = data

    try:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for n in names:
                    full = os.path.join(root, n)
                    if os.path.isfile(full) and not os.path.islink(full):
                        with open(full, "rb") as f:
                            add(os.path.relpath(full, path), f.read())
        elif path.endswith(".zip"):
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    if not info.is_dir():
                        add(info.filename, z.read(info))
        else:
            with tarfile.open(path) as t:
                for member in t.getmembers():
                    if member.isfile():
                        add(member.name, t.extractfile(member).read())
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as e:
        raise SubmissionError(f"cannot read {path}: {e}") from e
    return files


def exercise_files(files, chapters):
    """Splits a submission into ({chapter folder: (relative path, bytes)}, [ignored paths]).
    `chapters` are the workbook's chapter folders (NN_slug)."""
    by_name = {f"{c[3:]}_exercise.cu": c for c in chapters}
    found, ignored = {}, []
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        chapter = by_name.get(base)
        if chapter is None:
            ignored.append(name)
            continue
        canonical = name.endswith(f"chapters/{chapter}/{base}")
        if chapter in found:
            previous = found[chapter][0]
            if canonical and not previous.endswith(f"chapters/{chapter}/{base}"):
                ignored.append(previous)
            else:
                ignored.append(name)
                continue
        found[chapter] = (name, files[name])
    return found, ignored


INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def include_problems(source, chapter, workbook_root):
    """Why an exercise file may not be graded as it is: it may include only system headers
    (<...>) and the workbook's own headers under chapters/<its chapter>/ and common/, by their
    path from the workbook's root. Anything else (a solution, an absolute path, ..) is refused."""
    problems = []
    for kind, target in INCLUDE.findall(strip_comments(source)):
        if kind == "<":
            continue
        allowed = (target.startswith(f"chapters/{chapter}/") or target.startswith("common/")) \
            and ".." not in target.split("/") and not os.path.isabs(target) \
            and os.path.isfile(os.path.join(workbook_root, target))
        if not allowed:
            problems.append(f'#include "{target}": an exercise file may include only system '
                            f"headers and the workbook's own headers under chapters/{chapter}/ "
                            f"and common/")
    if re.search(r"^\s*#\s*include\s+[A-Za-z_]", strip_comments(source), re.M):
        problems.append("#include of a macro: an exercise file may include only headers named "
                        "in the file")
    return problems


def fingerprint(exercises, ignored):
    """A hash of what will be graded: the exercise files, by chapter."""
    h = hashlib.sha256()
    for chapter in sorted(exercises):
        h.update(chapter.encode() + b"\0" + exercises[chapter][1] + b"\0")
    h.update("\n".join(ignored).encode())
    return h.hexdigest()
