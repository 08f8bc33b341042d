"""Chapter 01's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Plant

ITEMS = [
    Function("ex2", "pattern_address", ("pattern_address", "expected_address"),
             Plant("  (void)lane;\n  switch (c.pattern) {",
                   "  return {call}(c, lane);\n  switch (c.pattern) {"),
             local="c.n <= 128"),  # the digests' cases (and more of some patterns)
]
