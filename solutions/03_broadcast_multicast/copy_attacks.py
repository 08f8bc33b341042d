"""Chapter 03's graded functions and kernels, for the copy attack
(tools/maintainer/copy_attacks.py): what an answer taken from the hand-out would look like, and
where it would go in the skeleton."""
from copy_attack_items import Function, Plant

ITEMS = [
    Function("ex2", "table_slot", ("table_slot", "conflict_free_slot", "lookup_slot"),
             Plant("  (void)lane;\n  (void)entries;\n  return key;",
                   "  return {call}(key, lane, entries);"),
             local="entries <= 256"),
]
