"""What a chapter's copy attack looks for: the graded functions and kernels of the chapter, each
with the check whose points it earns and how an answer taken from the hand-out would be written
into the exercise. Each chapter declares its items in solutions/NN_slug/copy_attacks.py (a list
ITEMS); tools/maintainer/copy_attacks.py runs the attack. Why predictions are not among them:
docs/instructors/maintaining.md.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Plant:
    """How a found answer is written into the skeleton: `old`, a line of the shipped skeleton,
    becomes `new`, where {call} is a call of a function found."""
    old: str
    new: str


@dataclass(frozen=True)
class Function:
    """A graded function: an answer the hand-out would give away as a definition of one of
    `names` in grader or library code (pasted into the exercise and called through {call}).
    Answers written as text anywhere in the hand-out are test_lesson_references.py's."""
    check: str
    name: str
    names: tuple                # identifiers a leaked reference would be defined as
    plant: Plant                # {call}: e.g. "return {call}(b, m, s, offset);"
    # Where the local runs ask the function (a C++ condition on its parameters): all that its
    # digests, or a search with the local checks as its oracle, can tell. "" where they ask its
    # whole domain, so that a table of their answers is the function itself.
    local: str = ""


@dataclass(frozen=True)
class Kernel:
    """A graded kernel: the answer would be a kernel of one of `names` defined in grader or
    library code (found and reported; a kernel is graded on the GPU only)."""
    check: str
    name: str
    names: tuple = field(default_factory=tuple)
