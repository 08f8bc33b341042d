"""Chapter 06's graded items for the copy attack (tools/maintainer/copy_attack_items.py). The
chapter grades no prediction: its layout is held to properties, its kernel to the GPU."""
from copy_attack_items import Function, Kernel, Plant

EX1 = "ex1"
EX2 = "ex2_correct"

ITEMS = [
    Function(EX1, "padded_pitch", ("padded_pitch",),
             Plant("  (void)element_bytes;\n  return columns;  // TODO",
                   "  return {call}(element_bytes, columns);"),
             local="columns <= 128"),
    Function(EX1, "padded_tile_index", ("padded_tile_index", "padded_index", "padded_word"),
             Plant("  return row * kTile + col;", "  return {call}(row, col);")),
    # A complete padded transpose: the exercise's own name, and the name of the padded kernel
    # that grader code of the hand-out once held (an experiment's baseline).
    Kernel(EX2, "padded_transpose_kernel",
           ("padded_transpose_kernel", "padded_experiment_kernel", "padded_kernel")),
]
