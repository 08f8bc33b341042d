"""Chapter @NN@'s graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

ITEMS = [
    Function("ex1", "tile_index",
             ("tile_index",), Plant("  return row * kTile + col;", "  return {call}(row, col);")),
    Prediction("ex2",
               "predicted_plain_column_wavefronts()", request(4, "load", lambda t: 4 * 32 * t),
               Plant("int predicted_plain_column_wavefronts() {\n  return kNotImplemented;",
                     "int predicted_plain_column_wavefronts() {\n  return {value};"),
               measured=(r"counted\.plain_column",)),
    Kernel("ex3_correct", "transpose_kernel",
           ("transpose_kernel",)),
]
