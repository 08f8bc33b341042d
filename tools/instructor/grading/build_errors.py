"""Whose fault a failed build of a submission's grader unit is (prepare.py asks).

The pristine workbook built on this machine, so a submission's build fails either because of
its own code or because of the machine. The student's: a compiler diagnostic attributed to their
code (one that names the exercise file, is reached from it through an include or a template, or
is in a file the pristine unit never reads, which only their code can bring in), an error of
ptxas or of the assembler (which see only code), or the linker's complaint about their unit.
Anything else (the build system's own errors, a file it could not write, a compiler that died)
is the machine's: a fault to retry, never a grade. A phrase of a resource running out (a full
disk, memory) is the machine's only where it is not in what the compiler said about the
student's code, whose own `#error` or `#pragma message` may say anything.
"""
import os
import re

from .pristine import exercise_path

RESOURCE_ERRORS = re.compile(r"No space left on device|Cannot allocate memory|out of memory|"
                             r"virtual memory exhausted|std::bad_alloc|Killed signal terminated|"
                             r"Resource temporarily unavailable|Disk quota exceeded|"
                             r"File size limit exceeded|internal compiler error|"
                             r"Memory allocation failure", re.I)
# A diagnostic's first line: FILE:LINE[:COLUMN]: KIND (GCC's) or FILE(LINE): KIND (NVIDIA's
# front end's).
HEAD = re.compile(r"^(?P<file>\S.*?)(?::\d+(?::\d+)?|\(\d+\)): (?P<kind>(?:fatal |catastrophic "
                  r"|internal compiler )?error|warning|note|remark)\b")
# The lines before a diagnostic that say where it was reached from (GCC's).
CONTEXT = re.compile(r"^(?:In file included from |\s+from )(?P<chain>.+?):\d+|"
                     r"^(?P<file>\S.*?)(?::\d+(?::\d+)?)?:\s+(?:In |At |required |in |"
                     r"recursively )")
ERROR_KINDS = ("error", "fatal error", "catastrophic error", "internal compiler error")
PTXAS = re.compile(r"^ptxas (?:error|fatal)\s*:", re.I)
# The assembler's errors (GNU as: FILE.s:LINE: Error: ...), which only code it is given (the
# unit's, asm() and .incbin included) can cause.
ASSEMBLER = re.compile(r"^\S.*?:\d+: Error: ")
LINKER = re.compile(r"(multiple definition|undefined reference) (?:of|to) [`']([^']+)'", re.I)


class Diagnostic:
    """One diagnostic of the compiler: its kind, the file its first line names, and the numbers
    of its lines in the text (those that said where it was reached from, its first line, its
    continuation lines and the notes that follow it)."""

    def __init__(self, kind, file, lines):
        self.kind, self.file, self.lines = kind, file, lines


def diagnostics(lines):
    """The compiler's diagnostics among `lines`, in order (a Diagnostic each)."""
    found, context, current = [], [], None
    for number, line in enumerate(lines):
        head = HEAD.match(line)
        if head and head.group("kind") == "note" and current is not None and not context:
            current.lines.append(number)  # a note belongs to the diagnostic before it
        elif head:
            current = Diagnostic(head.group("kind"), head.group("file"), context + [number])
            found.append(current)
            context = []
        elif CONTEXT.match(line):
            context.append(number)
            current = None
        elif line[:1].isspace() and current is not None:
            current.lines.append(number)
        else:  # another tool's line (ninja, the linker, ptxas, a command line)
            current, context = None, []
    return found


def students(diagnostic, lines, chapter, pristine_files, build):
    """Whether `diagnostic` is about the student's code: one of its lines names the exercise
    file, or its file is one the pristine unit never reads."""
    if any(exercise_path(chapter) in lines[n] for n in diagnostic.lines):
        return True
    return os.path.normpath(os.path.join(build, diagnostic.file)) not in pristine_files


def judge(text, chapter, pristine_files, build, sources=()):
    """Whose fault the failed build of `chapter`'s grader unit is, from what the build printed
    about it (`text`): (the lines for the student, None) where it is the student's, or (None,
    why) where it is the machine's. `pristine_files` are the files the pristine unit reads
    (absolute paths); `build` the folder the compiler ran in; `sources` the prefixes cut from
    the paths shown."""
    lines = text.splitlines()
    ours = [d for d in diagnostics(lines) if students(d, lines, chapter, pristine_files, build)]
    theirs = {n for d in ours for n in d.lines}
    shown, rest = [], []
    for d in ours:
        if d.kind in ERROR_KINDS:
            shown += [lines[n] for n in d.lines if exercise_path(chapter) in lines[n] or (
                HEAD.match(lines[n]) and HEAD.match(lines[n]).group("kind") in ERROR_KINDS)]
    for number, line in enumerate(lines):
        if number in theirs:
            continue
        if (PTXAS.match(line) or ASSEMBLER.match(line)) and not RESOURCE_ERRORS.search(line):
            shown.append(line)
        elif LINKER.search(line):  # the line before names the library, where one is
            shown.append(linker_said(line, lines[number - 1] if number else ""))
        else:
            rest.append(line)
    machine = next((line for line in rest if RESOURCE_ERRORS.search(line)), None)
    if machine is not None:
        return None, ("the machine ran out of a resource while building (" +
                      plain(machine, sources)[:200] + ")")
    if not shown:
        return None, "the build failed without an error that names the exercise file"
    return list(dict.fromkeys(plain(line, sources)[:300] for line in shown))[:12], None


def plain(line, sources):
    """`line` stripped, with the sandbox's paths of the workbook's source cut."""
    for prefix in sources:
        line = line.replace(prefix.rstrip("/") + "/", "")
    return line.strip()


def linker_said(line, before):
    """A linker's complaint about the student's unit, in the student's terms (`before`: the
    linker's line before it, which names the other definition's library)."""
    kind, name = LINKER.search(line).groups()
    if kind.lower() == "multiple definition" and "libcudart" in before + line:
        return (f"your exercise file defines {name}, which the CUDA runtime defines too: a "
                f"function of the CUDA runtime cannot be replaced (rename yours)")
    if kind.lower() == "multiple definition":
        return (f"your exercise file defines {name}, which the grader's own code defines too: a "
                f"grader's function cannot be replaced (rename yours)")
    return f"{name} is used but never defined (the linker found no definition of it)"
