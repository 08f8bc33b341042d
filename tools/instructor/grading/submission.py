"""What a student handed in: only the exercise files are taken from it.

A submission is a folder or an archive (.tar, .tar.gz, .tgz, .zip) of a hand-out tree, or of
just the exercise files. A file named `<slug>_exercise.cu` after a chapter of the workbook is
that chapter's exercise; the one under `chapters/NN_slug/` wins over copies elsewhere. Where
that leaves more than one (two hand-out trees, at two depths), nothing says which the student
meant: the chapter is refused, naming them. Every other file is ignored, and listed in the
report.

A submission is hostile input: read_files bounds its work before extracting anything, reads
only regular files (links, devices and fifos are listed, not read) and raises nothing but
SubmissionError; names are kept printable (printable) and ids safe (safe_name).
"""
import bz2
import gzip
import hashlib
import lzma
import os
import re
import stat
import tarfile
import zipfile
import zlib

ARCHIVES = (".tar", ".tar.gz", ".tgz", ".zip")

# Bounds on the work of reading one submission, checked before anything is extracted.
MAX_TOTAL_BYTES = 64 * 1024 * 1024      # every file read, in all
MAX_FILE_BYTES = 4 * 1024 * 1024        # one file: a larger one is not read ("too large")
MAX_ENTRIES = 10_000                    # files, folders, links... of the whole submission
MAX_ZIP_RATIO = 200                     # a zip member expanding more than this is a zip bomb
ZIP_RATIO_FROM = 1024 * 1024            # ... when it expands beyond this many bytes
MAX_STREAM_BYTES = 1024 * 1024 * 1024   # a compressed tar's uncompressed stream, headers included
MAX_ID_LENGTH = 80                      # characters of a submission id
CHUNK = 64 * 1024


class SubmissionError(Exception):
    """The submission cannot be read at all (a damaged or hostile archive). .name is the
    submission's (printable) name, .reason one line saying what is wrong, and str() is
    "NAME could not be read: REASON"."""

    def __init__(self, name, reason):
        super().__init__(f"{name} could not be read: {reason}")
        self.name, self.reason = name, reason


class SubmissionFiles(dict):
    """What read_files found: {relative path: bytes} of every regular file read (a dict, so code
    written for the plain dict keeps working), and

    .ignored  {relative path: reason}: entries not read, e.g. "a symlink, not read", "too large
              (5000000 bytes; the limit is 4194304)";
    .notes    [str]: what the report should say about the submission as a whole, e.g.
              "src/a_exercise.cu appears twice; the last copy is graded".

    Paths are '/'-separated, relative and printable: bytes that are not UTF-8 and control
    characters are written as \\xNN (see printable), so they can go to a terminal, JSON or CSV.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ignored = {}
        self.notes = []


def _utf8(text):
    """The bytes of `text`, a name from the file system or an archive: surrogate escapes become
    the bytes they stand for; any other lone surrogate is written as text (\\udxxx)."""
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


def printable(name):
    """`name` (str, possibly holding surrogate escapes, or bytes) as text that any output takes
    (a terminal, JSON, CSV): bytes that are not UTF-8 as \\xNN, control and other unprintable
    characters as \\xNN or \\uNNNN, the rest unchanged."""
    text = _utf8(name).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100
                   else f"\\u{ord(c):04x}" for c in text)


def safe_name(text):
    """`text` as a name for a folder and a CSV cell: never empty, '.' or '..', only ASCII
    letters, digits, '-', '_' and '.', every other byte (of its UTF-8, undecodable bytes as they
    were) written %xx; a leading character other than a letter, digit or '_' is escaped too (no
    hidden folder, no option, no spreadsheet formula). A longer name is cut, and ends with a hash
    of the whole, so different names stay different."""
    raw = _utf8(text)
    parts = []
    for i, b in enumerate(raw):
        c = chr(b)
        keep = c.isascii() and (c.isalnum() or c == "_" or (i > 0 and c in "-."))
        parts.append(c if keep else f"%{b:02x}")
    name = "".join(parts) or "_"
    if len(name) > MAX_ID_LENGTH:
        digest = hashlib.sha256(raw).hexdigest()[:12]
        cut, length = [], 0
        for p in parts:
            if length + len(p) > MAX_ID_LENGTH - 13:
                break
            cut.append(p)
            length += len(p)
        name = "".join(cut) + "~" + digest
    return name


def submission_id(path):
    """The name of a submission's results (its folder, its CSV row): the file or folder name
    without the archive suffix, made safe by safe_name. Two paths with the same id (a.zip and
    a.tar.gz, say) are two submissions of one name: the class refuses them."""
    path = os.fsencode(path)
    name = os.path.basename(os.path.normpath(path))
    for suffix in ARCHIVES:
        if name.endswith(suffix.encode()) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    return safe_name(name)


def is_submission(path):
    name = os.path.basename(path)
    if name.startswith("."):
        return False
    return os.path.isdir(path) or name.endswith(ARCHIVES)


def _mib(n):
    return f"{n / (1024 * 1024):g} MiB"


class _Collector:
    """Gathers what read_files finds, with the bounds and the notes."""

    def __init__(self, label):
        self.label = label
        self.result = SubmissionFiles()
        self.entries = 0
        self.total = 0
        self.seen = {}

    def fail(self, reason):
        raise SubmissionError(self.label, reason)

    def count(self):
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            self.fail(f"it holds more than {MAX_ENTRIES} entries (files, folders, links)")

    def key(self, name):
        """The normalised relative path of a member, or None (with the reason) when unsafe."""
        if isinstance(name, bytes):
            name = name.decode("utf-8", "surrogateescape")
        parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
        shown = printable("/".join(parts) or name)
        if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name) or ".." in parts:
            return shown, "an unsafe path (outside the submission), not read"
        if not parts:
            return shown, "an empty name, not read"
        return shown, None

    def _place(self, shown):
        n = self.seen.get(shown, 0) + 1
        self.seen[shown] = n
        if n > 1:
            self.result.pop(shown, None)
            self.result.ignored.pop(shown, None)

    def ignore(self, name, reason):
        shown, unsafe = self.key(name)
        self._place(shown)
        self.result.ignored[shown] = unsafe or reason

    def wants(self, name, size):
        """The normalised path to read `name` of `size` bytes into, or None when it is not read
        (then listed as ignored with the reason)."""
        shown, unsafe = self.key(name)
        self._place(shown)
        if unsafe:
            self.result.ignored[shown] = unsafe
            return None
        if size > MAX_FILE_BYTES:
            self.result.ignored[shown] = f"too large ({size} bytes; the limit is " \
                                         f"{MAX_FILE_BYTES}), not read"
            return None
        self.total += size
        if self.total > MAX_TOTAL_BYTES:
            self.fail(f"it holds more than {_mib(MAX_TOTAL_BYTES)} of files to read")
        return shown

    def add(self, shown, data):
        self.result[shown] = data

    def finish(self):
        for shown, n in sorted(self.seen.items()):
            if n > 1:
                times = "twice" if n == 2 else f"{n} times"
                self.result.notes.append(f"{shown} appears {times} in the submission; the last "
                                         f"copy is graded")
        return self.result


def _read_capped(f, declared, what, collector):
    """Reads a member of `declared` bytes in chunks, never more than the bounds allow: a member
    holding more than its header said is a damaged (or hostile) archive."""
    limit = min(max(declared, 0), MAX_FILE_BYTES)
    chunks, n = [], 0
    while True:
        block = f.read(min(CHUNK, limit + 1 - n))
        if not block:
            break
        n += len(block)
        if n > limit:
            collector.fail(f"{what} holds more than its header's {declared} bytes (a damaged or "
                           f"forged archive)")
        chunks.append(block)
    return b"".join(chunks)


_KINDS = ((stat.S_ISLNK, "a symlink"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a fifo"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDOOR, "a door"), (stat.S_ISPORT, "a port"),
          (stat.S_ISWHT, "a whiteout"))


def _kind(mode):
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def _read_folder(path, c):
    root = os.fsencode(path)
    stack = [b""]
    while stack:
        relative = stack.pop()
        try:
            with os.scandir(os.path.join(root, relative) if relative else root) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            if not relative:
                c.fail(_one_line(e.strerror or e))
            c.ignore(relative, f"a folder that could not be read ({e.strerror or e})")
            continue
        for entry in entries:
            c.count()
            name = relative + b"/" + entry.name if relative else entry.name
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError as e:
                c.ignore(name, f"could not be read ({e.strerror or e})")
                continue
            if stat.S_ISDIR(mode):
                stack.append(name)
            elif not stat.S_ISREG(mode):
                c.ignore(name, f"{_kind(mode)}, not read")
            else:
                _read_folder_file(entry.path, name, c)


def _read_folder_file(full, name, c):
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError as e:
        c.ignore(name, f"could not be read ({e.strerror or e})")
        return
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced since the folder was listed
            c.ignore(name, f"{_kind(info.st_mode)}, not read")
            return
        shown = c.wants(name, info.st_size)
        if shown is None:
            return
        try:
            data = _read_capped(f, info.st_size, printable(name), c)
        except OSError as e:
            c.ignore(name, f"could not be read ({e.strerror or e})")
            return
        c.add(shown, data)


_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


def _read_zip(path, c):
    try:
        z = zipfile.ZipFile(path)
    except UnicodeDecodeError as e:
        c.fail(f"the zip archive names a member '{printable(e.object)}', which is not UTF-8 "
               f"although its header says it is")
    with z:
        infos = z.infolist()
        if len(infos) > MAX_ENTRIES:
            c.fail(f"it holds more than {MAX_ENTRIES} entries (files, folders, links)")
        # Every bound from the headers first, before anything is extracted.
        for info in infos:
            if info.file_size > ZIP_RATIO_FROM and \
                    info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1):
                c.fail(f"{printable(info.filename)} would expand from {info.compress_size} to "
                       f"{info.file_size} bytes, more than {MAX_ZIP_RATIO} times (a zip bomb)")
        plan, unreadable = [], []
        for info in infos:
            c.count()
            if info.is_dir():
                continue
            mode = info.external_attr >> 16
            if info.create_system == 3 and stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                if stat.S_ISDIR(mode):
                    continue
                c.ignore(info.filename, f"{_kind(mode)}, not read")
                continue
            if info.flag_bits & 0x1:
                c.ignore(info.filename, "encrypted (it needs a password), not read")
                unreadable.append("the zip archive is encrypted")
                continue
            if info.compress_type not in _ZIP_METHODS:
                method = zipfile.compressor_names.get(info.compress_type,
                                                      f"method {info.compress_type}")
                c.ignore(info.filename, f"compressed with {method}, which cannot be read")
                unreadable.append(f"the zip archive uses a compression method that cannot be "
                                  f"read ({method})")
                continue
            shown = c.wants(info.filename, info.file_size)
            if shown is not None:
                plan.append((shown, info))
        if unreadable and not plan:
            c.fail(unreadable[0])
        # A name that appears twice: only its last entry counts (and only if that is a file).
        last = {shown: info for shown, info in plan}
        for shown, info in plan:
            if last[shown] is not info or shown in c.result.ignored:
                continue
            with z.open(info) as f:
                c.add(shown, _read_capped(f, info.file_size, printable(info.filename), c))


class _CappedStream:
    """A read-only stream that fails once more than `limit` bytes have come out of it."""

    def __init__(self, stream, limit, c):
        self.stream, self.left, self.c = stream, limit, c

    def read(self, n=-1):
        data = self.stream.read(CHUNK if n is None or n < 0 else n)
        self.left -= len(data)
        if self.left < 0:
            self.c.fail(f"it expands to more than "
                        f"{_mib(MAX_STREAM_BYTES)}")
        return data


class _EndAwareTarInfo(tarfile.TarInfo):
    """Records why the member list ended: tarfile treats a damaged or missing header after the
    first as the end of the archive, which would silently lose the rest."""

    @classmethod
    def fromtarfile(cls, archive):
        try:
            return super().fromtarfile(archive)
        except tarfile.HeaderError as e:
            archive.wb_end = e
            raise


_TAR_KINDS = {tarfile.SYMTYPE: "a symlink", tarfile.LNKTYPE: "a hard link",
              tarfile.CHRTYPE: "a character device", tarfile.BLKTYPE: "a block device",
              tarfile.FIFOTYPE: "a fifo"}


def _read_tar(path, c):
    with open(path, "rb") as raw:
        magic = raw.read(6)
        raw.seek(0)
        if magic.startswith(b"\x1f\x8b"):
            stream = _CappedStream(gzip.GzipFile(fileobj=raw), MAX_STREAM_BYTES, c)
        elif magic.startswith(b"BZh"):
            stream = _CappedStream(bz2.BZ2File(raw), MAX_STREAM_BYTES, c)
        elif magic.startswith(b"\xfd7zXZ\x00"):
            stream = _CappedStream(lzma.LZMAFile(raw), MAX_STREAM_BYTES, c)
        else:
            stream = raw
        with tarfile.open(fileobj=stream, mode="r|", encoding="utf-8",
                          errors="surrogateescape", tarinfo=_EndAwareTarInfo) as t:
            for member in t:
                c.count()
                if member.isdir():
                    continue
                if not member.isfile():
                    kind = _TAR_KINDS.get(member.type, f"an entry of unknown type {member.type!r}")
                    c.ignore(member.name, f"{kind}, not read")
                else:
                    shown = c.wants(member.name, member.size)
                    if shown is not None:
                        f = t.extractfile(member)
                        c.add(shown, _read_capped(f, member.size, printable(member.name), c))
            end = getattr(t, "wb_end", None)
            if isinstance(end, tarfile.EmptyHeaderError):
                c.fail("the tar archive is truncated (it ends without its "
                       "end-of-archive blocks)")
            if isinstance(end, (tarfile.TruncatedHeaderError, tarfile.InvalidHeaderError)):
                c.fail(f"the tar archive is damaged or truncated "
                       f"({_one_line(end)})")


def _one_line(text):
    return " ".join(str(text).split()) or "unknown error"


def read_files(path):
    """What the submission at `path` (a folder or an archive) holds: a SubmissionFiles, the
    {relative path: bytes} of every regular file read, with .ignored and .notes. Never raises
    anything but SubmissionError (one line: the submission's name and why it cannot be read),
    and bounds its work: MAX_ENTRIES entries, MAX_FILE_BYTES a file (larger ones are listed as
    ignored, "too large"), MAX_TOTAL_BYTES in all, zip members expanding more than MAX_ZIP_RATIO
    times and compressed tars expanding beyond MAX_STREAM_BYTES are refused."""
    label = printable(os.path.basename(os.path.normpath(os.fsdecode(path))) or path)
    c = _Collector(label)
    try:
        if os.path.isdir(path):
            _read_folder(path, c)
        elif os.fsdecode(path).endswith(".zip"):
            _read_zip(path, c)
        else:
            _read_tar(path, c)
        return c.finish()
    except SubmissionError:
        raise
    except RuntimeError as e:
        reason = "the zip archive is encrypted" if "encrypted" in str(e) else _one_line(e)
        raise SubmissionError(label, reason) from None
    except NotImplementedError as e:
        raise SubmissionError(label, f"the archive uses a feature that cannot be read "
                                     f"({_one_line(e)})") from None
    except (EOFError, zlib.error, lzma.LZMAError) as e:
        raise SubmissionError(label, f"the compressed data is truncated or damaged "
                                     f"({_one_line(e)})") from None
    except zipfile.BadZipFile as e:
        raise SubmissionError(label, f"the zip archive is damaged or truncated "
                                     f"({_one_line(e)})") from None
    except tarfile.TarError as e:
        raise SubmissionError(label, f"the tar archive is damaged or truncated "
                                     f"({_one_line(e)})") from None
    except gzip.BadGzipFile as e:
        raise SubmissionError(label, f"the gzip data is damaged ({_one_line(e)})") from None
    except OSError as e:
        raise SubmissionError(label, _one_line(e.strerror or e)) from None
    except Exception as e:  # anything else an archive library raises: still one submission
        raise SubmissionError(label, f"{type(e).__name__}: {_one_line(e)}") from None


class Exercises(dict):
    """What exercise_files found: {chapter folder: (relative path, bytes)} of the chapters with
    one exercise file to grade, and .conflicts {chapter folder: [relative paths]} of those with
    several, none of which is graded."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.conflicts = {}


def exercise_files(files, chapters):
    """Splits a submission into (Exercises, [ignored paths]). `chapters` are the workbook's
    chapter folders (NN_slug). A chapter's file under chapters/NN_slug/ wins over its copies
    elsewhere; where several are left at that rank (two hand-out trees, at two depths, or two
    copies outside any), the chapter is a conflict and each of them is listed as ignored. When
    `files` is read_files' answer, the entries it did not read are listed too, each as "path
    (reason)"."""
    by_name = {f"{c[3:]}_exercise.cu": c for c in chapters}
    candidates = {}
    ignored = [f"{name} ({why})" for name, why in sorted(getattr(files, "ignored", {}).items())]
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        chapter = by_name.get(base)
        if chapter is None:
            ignored.append(name)
            continue
        candidates.setdefault(chapter, []).append(name)
    found = Exercises()
    for chapter, names in candidates.items():
        canonical = [n for n in names if n == f"chapters/{chapter}/{n.rsplit('/', 1)[-1]}"
                     or n.endswith(f"/chapters/{chapter}/{n.rsplit('/', 1)[-1]}")]
        chosen = canonical or names
        ignored += [n for n in names if n not in chosen]
        if len(chosen) == 1:
            found[chapter] = (chosen[0], files[chosen[0]])
        else:
            found.conflicts[chapter] = chosen
            ignored += [f"{n} (one of {len(chosen)} exercise files for {chapter}: none is "
                        f"graded)" for n in chosen]
    return found, ignored


def fingerprint(exercises, ignored):
    """A hash of what will be graded: the exercise files, by chapter."""
    h = hashlib.sha256()
    for chapter in sorted(exercises):
        h.update(chapter.encode() + b"\0" + exercises[chapter][1] + b"\0")
    h.update("\n".join(ignored).encode())
    return h.hexdigest()

