#!/usr/bin/env python3
"""Reads a hand-out's VARIANT file for the build: prints `ID STUDENT` (STUDENT `-` when none).

    read_variant.py SOURCE_ROOT

A workbook without a VARIANT file is the self-study one: variant 0. A class hand-out's VARIANT
(written by tools/instructor/make_handout.py) names whose workbook it is and its variant:

    student: alice
    variant: 123456789

Anything else in it is an error that names the line (printed on stderr, which meson shows).
"""
import os
import re
import sys

LARGEST = 999999999
STUDENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}")


def parse(text):
    """(variant, student) of a VARIANT file's text; raises ValueError naming what is wrong.
    tools/instructor/grading/variants.py reads a submission's VARIANT with it too."""
    fields = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or key not in ("student", "variant"):
            raise ValueError(f"line {number}: expected `student: ID` or `variant: N`, "
                             f"found {line[:60]!r}")
        if key in fields:
            raise ValueError(f"line {number}: a second `{key}:`")
        fields[key] = value
    for key in ("student", "variant"):
        if key not in fields:
            raise ValueError(f"no `{key}:` line")
    if not STUDENT.fullmatch(fields["student"]):
        raise ValueError(f"student {fields['student'][:60]!r} is not a student id (letters, "
                         f"digits and . _ @ + -, at most 64)")
    if not re.fullmatch(r"[0-9]{1,9}", fields["variant"]) or not \
            1 <= int(fields["variant"]) <= LARGEST:
        raise ValueError(f"variant {fields['variant'][:60]!r} is not a class variant (a whole "
                         f"number from 1 to {LARGEST})")
    return int(fields["variant"]), fields["student"]


def read(path):
    """(variant, student) of the VARIANT file at `path`; raises ValueError naming what is wrong."""
    with open(path, encoding="utf-8", errors="strict") as f:
        return parse(f.read())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = os.path.join(sys.argv[1], "VARIANT")
    if not os.path.exists(path):
        print("0 -")
        return
    try:
        variant, student = read(path)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        sys.exit(f"{path}: {e}. It is written by the instructor's hand-out tool; ask for a "
                 f"fresh copy rather than editing it.")
    print(variant, student)


if __name__ == "__main__":
    main()
