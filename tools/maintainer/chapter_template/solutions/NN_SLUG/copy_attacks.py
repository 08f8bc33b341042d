"""Chapter @NN@'s graded functions and kernels, for the copy attack
(tools/maintainer/copy_attacks.py): what an answer taken from the hand-out would look like, and
where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "tile_index",
             ("tile_index",), Plant("  return row * kTile + col;", "  return {call}(row, col);")),
    Kernel("ex3_correct", "transpose_kernel",
           ("transpose_kernel",)),
]
