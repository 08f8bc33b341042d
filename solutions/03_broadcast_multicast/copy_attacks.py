"""Chapter 03's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Plant

ITEMS = [
    Function("ex2", "table_slot", ("table_slot", "conflict_free_slot", "lookup_slot"),
             Plant("  (void)lane;\n  (void)entries;\n  return key;",
                   "  return {call}(key, lane, entries);"),
             local="entries <= 256"),
]
