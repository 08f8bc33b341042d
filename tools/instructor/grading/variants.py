"""Variants: each student's graded cases drawn from their own seed (grader/harness/variant.hpp).

A student's variant is a keyed hash of their id with the course secret (HMAC-SHA256), so that
nobody without the secret can work out a classmate's variant or forge one that grading accepts:
the hand-out's VARIANT file says whose workbook it is and its variant, and official grading
computes the variant again from the roster and the secret. Variant 0 is self-study (the
committed cases); a class variant is 1..LARGEST.
"""
import csv
import hashlib
import hmac
import io
import os
import re
import sys

# The VARIANT file's format, ids and range are the build's (grader/tools/read_variant.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "grader", "tools"))
import read_variant  # noqa: E402

from . import submission  # noqa: E402

LARGEST = read_variant.LARGEST
STUDENT = read_variant.STUDENT
# A roster's header names its columns: the student id (needed), the name and the submission.
COLUMNS = {"student": {"student", "student_id", "student id", "id", "sis_id", "sis user id",
                       "sid", "login"},
           "name": {"name", "student name", "full name"},
           "submission": {"submission", "file", "filename", "file name"}}
MIN_SECRET_BYTES = 16
DOMAIN = b"smem-bank-conflicts-workbook variant\0"


class VariantError(Exception):
    """Bad input to the variant tools: one line that names the row, file or option."""


def derive(secret, student):
    """The class variant (1..LARGEST) of `student` under `secret` (bytes)."""
    digest = hmac.new(secret, DOMAIN + student.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % LARGEST + 1


def read_secret(path, option="--secret-file"):
    """The course secret in the file at `path`: at least MIN_SECRET_BYTES bytes, surrounding
    white space not counted."""
    if not path:
        raise VariantError(f"{option} is missing: a class's variants are derived from the "
                           f"course secret (a file only the instructors hold)")
    try:
        with open(path, "rb") as f:
            secret = f.read(1 << 16).strip()
    except OSError as e:
        raise VariantError(f"{option} {path}: {e.strerror or e}") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise VariantError(f"{option} {path}: the secret is {len(secret)} bytes; it must be at "
                           f"least {MIN_SECRET_BYTES} (for example: head -c 32 /dev/urandom | "
                           f"base64 > {os.path.basename(path)})")
    return secret


def check_student(student, where):
    if not STUDENT.fullmatch(student):
        raise VariantError(f"{where}: {student[:60]!r} is not a student id (letters, digits and "
                           f". _ @ + -, starting with a letter or digit, at most 64)")
    return student


class RosterEntry:
    """One student of a roster: `student` (the id), `name` (may be empty), `submission` (the
    name their submission has in the class folder, where the roster says; else None: it is named
    after the id) and the roster's `row`."""

    def __init__(self, student, name, submission, row):
        self.student, self.name, self.submission, self.row = student, name, submission, row


def roster_column(names, kind):
    """The column of a header row (`names`, lower case, stripped) that holds `kind`, or None."""
    found = [i for i, name in enumerate(names) if name in COLUMNS[kind]]
    return found[0] if found else None


def read_roster(path):
    """The students of the roster CSV at `path`, in order (RosterEntry). With a header row, the
    columns named student (or student_id, id, sis_id, sis user id, sid, login), name (or student
    name, full name) and submission (or file, filename, file name) are read, and only the first
    is needed; without one, the first column is the id (and there are no names or submission
    names). A blank row is skipped; an empty id, a bad id, a second row for one
    id or for one submission is an error naming the row."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            text = f.read(16 << 20)
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(f"--roster {path}: {getattr(e, 'strerror', None) or e}") from None
    try:  # a spreadsheet's export may separate with ';' or a tab
        dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:  # one column, or nothing to tell: commas
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    columns, start = {"student": 0, "name": None, "submission": None}, 0
    if rows:
        names = [cell.strip().lower() for cell in rows[0]]
        if roster_column(names, "student") is not None:
            columns = {kind: roster_column(names, kind) for kind in COLUMNS}
            start = 1
        elif any(roster_column(names, kind) is not None for kind in ("name", "submission")):
            raise VariantError(f"--roster {path}: its header names no column of student ids "
                               f"(one of: {', '.join(sorted(COLUMNS['student']))})")

    def cell(row, kind):
        column = columns[kind]
        return row[column].strip() if column is not None and column < len(row) else ""

    entries, first_row, first_submission = [], {}, {}
    for number, row in enumerate(rows[start:], start + 1):
        if not any(c.strip() for c in row):
            continue
        where = f"--roster {path}, row {number}"
        student = cell(row, "student")
        if not student:
            raise VariantError(f"{where}: no student id")
        check_student(student, where)
        if student in first_row:
            raise VariantError(f"{where}: student {student} is listed twice (first on row "
                               f"{first_row[student]})")
        first_row[student] = number
        submission = cell(row, "submission") or None
        if submission is not None:
            if submission in first_submission:
                raise VariantError(f"{where}: submission {submission!r} is listed twice (first "
                                   f"on row {first_submission[submission]})")
            first_submission[submission] = number
        entries.append(RosterEntry(student, cell(row, "name"), submission, number))
    if not entries:
        raise VariantError(f"--roster {path}: no student in it")
    return entries


class Roster:
    """A roster, and with the course secret every student's variant (without it, every student
    is on variant 0: the roster then only keys the gradebook by student id)."""

    def __init__(self, path, entries, secret=None):
        self.path, self.entries, self.secret = path, entries, secret
        self.students = [e.student for e in self.entries]
        self.variants = {s: derive(self.secret, s) if self.secret else 0 for s in self.students}
        self.by_student = {e.student: e for e in self.entries}

    @classmethod
    def read(cls, roster_path, secret_path=None):
        """The roster CSV at `roster_path` (read_roster), with the course secret's variants."""
        return cls(roster_path, read_roster(roster_path),
                   read_secret(secret_path) if secret_path else None)

    def entry_for(self, ident):
        """The roster's entry for the submission named `ident` (submission.submission_id of its
        path), or None: the entry whose submission column names it (the file or folder name,
        with or without its archive suffix), else the student whose id it is and whose row
        names no submission."""
        for e in self.entries:
            if e.submission is not None and submission.submission_id(e.submission) == ident:
                return e
        e = self.by_student.get(ident)
        return e if e is not None and e.submission is None else None

    def variant_of(self, student):
        if student not in self.variants:
            raise VariantError(f"{student} is not on the roster {self.path}")
        return self.variants[student]


def variant_file(student, variant):
    """The text of a class hand-out's VARIANT file."""
    return ("# This workbook's variant. Every chapter draws its graded cases from it (the graders\n"
            "# say first which cases are yours), so your answers are your own. Official grading\n"
            "# computes it again from the course roster: do not edit this file.\n"
            f"student: {student}\nvariant: {variant}\n")


def parse_variant_file(data):
    """(student, variant) of a VARIANT file's bytes, as the build reads it; raises VariantError
    naming the line."""
    try:
        variant, student = read_variant.parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise VariantError("VARIANT is not text") from None
    except ValueError as e:
        raise VariantError(f"VARIANT {e}") from None
    return student, variant


def parse_variant(text, where):
    """The variant `text` names (0..LARGEST), or VariantError naming `where`."""
    if not re.fullmatch(r"[0-9]{1,10}", str(text)) or not 0 <= int(text) <= LARGEST:
        raise VariantError(f"{where}: {str(text)[:40]!r} is not a variant (a whole number from "
                           f"0 to {LARGEST}; 0 is self-study)")
    return int(text)
