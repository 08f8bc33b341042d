"""Chapter @NN@'s graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "tile_index",
             ("tile_index",), Plant("  return row * kTile + col;", "  return {call}(row, col);")),
    Kernel("ex3_correct", "transpose_kernel",
           ("transpose_kernel",)),
]
