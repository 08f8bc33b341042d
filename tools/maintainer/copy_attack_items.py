"""What a chapter's copy attacks look for: the graded items of the chapter, each with the check
whose points it earns and how an answer taken from the hand-out would be written into the
exercise. Each chapter declares its items in solutions/NN_slug/copy_attacks.py (a list ITEMS);
tools/maintainer/copy_attacks.py runs the attacks.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    """A warp request as the analyser and the case files write it."""
    width: int            # bytes per lane: 1, 2, 4, 8, 16
    op: str               # "load", "store", "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"
    addresses: tuple      # 32 byte addresses, lane 0 first; -1 for an inactive lane

    def __post_init__(self):
        if len(self.addresses) != 32:
            raise ValueError(f"a request has 32 addresses, not {len(self.addresses)}")

    def key(self):
        """What two requests share when they are the same access (inactive lanes as -1)."""
        count = {"ldmatrix.x1": 8, "ldmatrix.x2": 16}.get(self.op, 32)
        return (self.width, self.op, tuple(a if t < count else -1
                                           for t, a in enumerate(self.addresses)))


def request(width, op, address_of):
    """A request where lane t accesses address_of(t)."""
    return Request(width, op, tuple(int(address_of(t)) for t in range(32)))


@dataclass(frozen=True)
class Plant:
    """How a found answer is written into the skeleton: `old`, a line of the shipped skeleton,
    becomes `new`, where {value} is a number found and {call} a call of a function found."""
    old: str
    new: str


@dataclass(frozen=True)
class Prediction:
    """A predicted count (wavefronts of one request): an answer the hand-out would give away in
    a measurement file (a quantity a GPU check records, or a case file's row of the same
    request), in a lesson's analyser example of the same request, or as a literal in grader
    code (`leaks`: regular expressions whose first group is the answer)."""
    check: str                  # the id of the check whose points a right answer earns
    name: str                   # the item, for the report
    request: Request
    plant: Plant
    measured: tuple = ()        # regular expressions of measurement quantities that count it
    leaks: tuple = ()


@dataclass(frozen=True)
class Function:
    """A graded function: an answer the hand-out would give away as a definition of one of
    `names` in grader or library code (pasted into the exercise and called through {call}), or
    as a literal (`leaks`, regular expressions found anywhere under grader/ and common/)."""
    check: str
    name: str
    names: tuple                # identifiers a leaked reference would be defined as
    plant: Plant                # {call}: e.g. "return {call}(b, m, s, offset);"
    leaks: tuple = ()


@dataclass(frozen=True)
class Kernel:
    """A graded kernel: the answer would be a kernel of one of `names` defined in grader or
    library code (found and reported; a kernel is graded on the GPU only)."""
    check: str
    name: str
    names: tuple = field(default_factory=tuple)
