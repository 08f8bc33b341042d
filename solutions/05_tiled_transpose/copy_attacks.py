"""Chapter 05's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Kernel, Plant, Prediction, request

EX1 = "ex1_correct"
EX2 = "ex2"

ITEMS = [
    # Variant 0's tile, float tile[32][32]: a warp stores row 5, and loads column 5 (the grader
    # asks about these at variant 0; a class variant asks about its own tile).
    Prediction(EX2, "predicted_tile_store_wavefronts(c)",
               request(4, "store", lambda t: 4 * (5 * 32 + t)),
               Plant("int predicted_tile_store_wavefronts(TileCase c) {\n  (void)c;\n  return kNotImplemented;",
                     "int predicted_tile_store_wavefronts(TileCase c) {\n  (void)c;\n  return {value};"),
               measured=(r"counted\.store_wavefronts",)),
    Prediction(EX2, "predicted_tile_load_wavefronts(c)",
               request(4, "load", lambda t: 4 * (32 * t + 5)),
               Plant("int predicted_tile_load_wavefronts(TileCase c) {\n  (void)c;\n  return kNotImplemented;",
                     "int predicted_tile_load_wavefronts(TileCase c) {\n  (void)c;\n  return {value};"),
               measured=(r"counted\.load_wavefronts",),
               # The old threshold's text: "tile[32][32], 32-way column reads".
               leaks=(r"(\d+)-way column reads", r"its (\d+)-way tile loads")),
    # A complete tiled transpose in grader code: this chapter's, or the padded one a later
    # chapter's old grader held (as fast, and correct under this contract).
    Kernel(EX1, "tiled_transpose_kernel",
           ("tiled_transpose_kernel", "tiled_kernel", "padded_experiment_kernel")),
]
