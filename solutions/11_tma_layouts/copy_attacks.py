"""Chapter 11's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

EX1 = "ex1"
EX2A = "ex2a"
EX2BC = "ex2b_2c"
EX3 = "ex3b_counters"

# mode: (B, the span in bytes): the TMA's layouts as the H200 writes them (the reference's
# exercise 1).
MODES = {"kNone": (0, None), "k32B": (1, 32), "k64B": (2, 64), "k128B": (3, 128)}


def tma_offset(mode, row_bytes, row, byte):
    bits, span = MODES[mode]
    a = row * (span or row_bytes) + byte
    return a ^ ((a >> 3) & (((1 << bits) - 1) << 4))


def column_row_bytes(mode):
    return MODES[mode][1] or 128


PITCH = 36  # the reference's exercise 2b


def skeleton_line(read, mode, value):
    pad = " " * (len("k128B") - len(mode))
    return (f"    if (mode == TmaSwizzle::{mode}) return {value};{pad}  // TODO: {read}, {mode}")


ITEMS = [
    Function(EX1, "tma_smem_offset", ("tma_smem_offset", "offset"),
             Plant("  (void)mode;\n  return row * box_row_bytes + byte;  // TODO: the three "
                   "swizzled modes", "  return {call}(mode, box_row_bytes, row, byte);")),
    Function(EX2BC, "least_padded_pitch", ("least_padded_pitch",),
             Plant("int least_padded_pitch() {\n  return kNotImplemented;",
                   "int least_padded_pitch() {\n  return {call}();")),
] + [
    Prediction(EX2A, f"predicted_column_wavefronts({mode}, {enumerator})",
               request(width, "load",
                       lambda t, mode=mode: tma_offset(mode, column_row_bytes(mode), t, 0)),
               Plant(skeleton_line(read, mode, "kNotImplemented"),
                     skeleton_line(read, mode, "{value}")),
               measured=(rf"counted\.column\.{mode}\.{read}",))
    for read, enumerator, width in (("words", "kWords", 4), ("chunks", "kChunks", 16))
    for mode in MODES
] + [
    Prediction(EX2BC, "predicted_padded_column_wavefronts(pitch_floats)",
               request(4, "load", lambda t: 4 * PITCH * t),
               Plant("int predicted_padded_column_wavefronts(int pitch_floats) {\n"
                     "  (void)pitch_floats;\n  return kNotImplemented;",
                     "int predicted_padded_column_wavefronts(int pitch_floats) {\n"
                     "  (void)pitch_floats;\n  return {value};"),
               measured=(r"counted\.padded_column",)),
    # Exercise 3: the mode of the transpose's boxes (3a) and the kernel's pipeline (3b). No
    # grader holds a transpose of its own: a leaked one would go by these names.
    Kernel(EX3, "tma_transpose_kernel", ("tma_transpose_kernel", "reference_tma_transpose")),
]
