"""Chapter 03's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
import re

from copy_attack_items import Function, Plant, Prediction, request

EX1 = "ex1"
EX2 = "ex2"

# (enumerator, the access as the grader names it, bytes per lane, lane t's byte address), as
# variant 0 (self-study) draws each pattern (the brackets of the interface).
PATTERNS = [
    ("kBytesGrouped", "c[lane / 2]", 1, lambda t: t // 2),
    ("kBytesStrided", "c[8 * lane]", 1, lambda t: 8 * t),
    ("kBytesFarApart", "c[64 * lane]", 1, lambda t: 64 * t),
    ("kHalvesGrouped", "h[lane / 4]", 2, lambda t: 2 * (t // 4)),
    ("kHalvesStrided", "h[16 * lane]", 2, lambda t: 2 * 16 * t),
    ("kFloatsGrouped", "a[lane / 4]", 4, lambda t: 4 * (t // 4)),
    ("kFloatGroupsStrided", "a[16 * (lane / 8)]", 4, lambda t: 4 * 16 * (t // 8)),
    ("kDoublesGrouped", "d[lane / 16]", 8, lambda t: 8 * (t // 16)),
    ("kDoublePairsStrided", "d[2 * (lane / 2)]", 8, lambda t: 8 * 2 * (t // 2)),
    ("kFloat4Grouped", "v[lane / 8]", 16, lambda t: 16 * (t // 8)),
    ("kFloat4PairsStrided", "v[2 * (lane / 2)]", 16, lambda t: 16 * 2 * (t // 2)),
]

ITEMS = [
    Prediction(EX1, f"predicted_wavefronts({name})", request(width, "load", address),
               Plant(f"    case Pattern::{name}: return kNotImplemented;",
                     f"    case Pattern::{name}: return {{value}};"),
               # The quantity the GPU check records: counted_wavefronts.<name> (<access>).
               measured=(re.escape(f"counted_wavefronts.{name} ({access})"),))
    for name, access, width, address in PATTERNS
] + [
    Function(EX2, "table_slot", ("table_slot", "conflict_free_slot", "lookup_slot"),
             Plant("  (void)lane;\n  return key;", "  return {call}(key, lane);")),
]
