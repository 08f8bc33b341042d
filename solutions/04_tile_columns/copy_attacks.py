"""Chapter 04's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

EX1 = "ex1"
EX2 = "ex2_correct"

# Exercise 1 has no prediction: its answer is a function, which the old hand-out's grader held
# (pitch_spec.hpp's least_pitch). Exercise 2 is a kernel; the grader's own baseline moves whole
# tiles only, so it is not one.
ITEMS = [
    Function(EX1, "padded_pitch", ("padded_pitch", "least_pitch", "least_conflict_free_pitch"),
             Plant("  return kNotImplemented;  // TODO",
                   "  return {call}(element_bytes, width);"),
             local="width <= 512"),
    Kernel(EX2, "block_column_sums_kernel",
           ("block_column_sums_kernel", "padded_column_sums_kernel")),
]
