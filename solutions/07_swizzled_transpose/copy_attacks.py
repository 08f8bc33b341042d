"""Chapter 07's graded items for the copy attack (tools/maintainer/copy_attack_items.py). The
chapter grades no prediction: its swizzle is held to properties, its kernel to the GPU."""
from copy_attack_items import Function, Kernel, Plant

EX1 = "ex1"
EX2 = "ex2_correct"

ITEMS = [
    Function(EX1, "swizzled_word", ("swizzled_word",),
             Plant("  return row * width + col;", "  return {call}(row, col, width);"),
             local="width <= 32"),
    Function(EX1, "swizzled_tile_index", ("swizzled_tile_index", "swizzled_index", "xor_index"),
             Plant("  return row * kTile + col;", "  return {call}(row, col);")),
    Kernel(EX2, "swizzled_transpose_kernel",
           ("swizzled_transpose_kernel", "swizzled_experiment_kernel", "swizzled_kernel")),
]
