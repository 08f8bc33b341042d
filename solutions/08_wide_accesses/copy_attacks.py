"""Chapter 08's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

EX1 = "ex1"
EX2 = "ex2_correct"
EX3 = "ex3"


def reference_offset(row, chunk):
    """The reference's tile_chunk_offset, in floats."""
    return 64 * row + 4 * (chunk ^ ((row // 4) % 8))


def plant(function, parameters=""):
    """The skeleton's `function` (its parameters as the skeleton declares them, each voided)
    returning the copied value."""
    voided = "".join(f"\n  (void){p.split()[-1]};" for p in parameters.split(", ") if p)
    return Plant(f"int {function}({parameters}) {{{voided}\n  return kNotImplemented;",
                 f"int {function}({parameters}) {{{voided}\n  return {{value}};")


# Warp 0's first tile store (thread (x, y) = (t % 16, t / 16) stores chunk x of row y) and first
# block load (it loads chunk y of row 4 x), through the reference's layout.
TILE_STORE = request(16, "store", lambda t: 4 * reference_offset(t // 16, t % 16))
TILE_LOAD = request(16, "load", lambda t: 4 * reference_offset(4 * (t % 16), t // 16))
PADDED_LOAD = request(16, "load", lambda t: 4 * (68 * 4 * (t % 16) + 4 * (t // 16)))
PAIRS_STORE = request(8, "store", lambda t: 8 * (t // 2))

ITEMS = [
    Function(EX1, "tile_chunk_offset", ("tile_chunk_offset", "chunk_offset", "swizzled_offset"),
             Plant("  return row * kTile + 4 * chunk;", "  return {call}(row, chunk);")),
    Kernel(EX2, "wide_transpose_kernel",
           ("wide_transpose_kernel", "float4_transpose_kernel", "wide_kernel")),
    Prediction(EX3, "predicted_tile_store_wavefronts()", TILE_STORE,
               plant("predicted_tile_store_wavefronts"), measured=(r"counted\.store_wavefronts",)),
    Prediction(EX3, "predicted_tile_load_wavefronts()", TILE_LOAD,
               plant("predicted_tile_load_wavefronts"), measured=(r"counted\.load_wavefronts",)),
    Prediction(EX3, "predicted_padded_load_wavefronts(pitch_floats, load_bytes)", PADDED_LOAD,
               plant("predicted_padded_load_wavefronts", "int pitch_floats, int load_bytes")),
    Prediction(EX3, "predicted_float2_pairs_store_wavefronts(stride)", PAIRS_STORE,
               plant("predicted_float2_pairs_store_wavefronts", "int stride")),
]
