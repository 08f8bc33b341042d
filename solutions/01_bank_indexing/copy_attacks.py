"""Chapter 01's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Plant, Prediction, request

EX2 = "ex2"
EX3 = "ex3"

# (enumerator, element bytes, lane t's byte address): the reference's exercise 2 in the
# workbook's own cases (variant 0; a class variant grades other parameters, grader/01_bank_indexing/
# variant_cases.cpp).
PATTERNS = [
    ("kReversedFloats", 4, lambda t: 4 * (31 - t)),
    ("kStrideFloats", 4, lambda t: 4 * 8 * t),
    ("kStructMember", 4, lambda t: 12 * t + 8),
    ("kColumnOfTile", 4, lambda t: 4 * (16 * t + 3)),
    ("kColumnOfPaddedTile", 4, lambda t: 4 * (34 * t + 1)),
    ("kFewFloatsShared", 4, lambda t: 4 * (t % 4)),
    ("kWordsInOneBank", 4, lambda t: 4 * 32 * (t % 4)),
    ("kBytesStride", 1, lambda t: 16 * t),
    ("kShortsStride", 2, lambda t: 2 * 64 * t),
]

ITEMS = [
    Function(EX2, "pattern_address", ("pattern_address", "expected_address"),
             Plant("  (void)lane;\n  switch (c.pattern) {",
                   "  return {call}(c, lane);\n  switch (c.pattern) {")),
] + [
    Prediction(EX3, f"predicted_wavefronts({name})", request(width, "load", address),
               Plant(f"    case Pattern::{name}: return kNotImplemented;",
                     f"    case Pattern::{name}: return {{value}};"),
               measured=(rf"counted_wavefronts\.{name}",))
    for name, width, address in PATTERNS
]
