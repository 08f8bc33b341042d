"""Chapter 12's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Plant, Prediction, request

EX1 = "ex1"
EX2A = "ex2a"
EX2BC = "ex2b_2c"

PITCH = 264  # the reference's exercise 2b
ASKED = (258, 272)  # exercise 2c's pitches in self-study (variant 0)


def accumulator_row(t):
    """The interface's accumulator_row(t, 0)."""
    return 16 * (t // 32) + (t % 32) // 4


def accumulator_col(t):
    """The interface's accumulator_col(t, 0)."""
    return 2 * (t % 4)


def epilogue_store(pitch):
    """Exercise 2c's request: lane t stores d[0], d[1] (8 bytes) at its word of the C tile."""
    return request(8, "store",
                   lambda t: 4 * (pitch * accumulator_row(t) + accumulator_col(t)))


ITEMS = [
    Function(EX1, "wgmma_descriptor", ("wgmma_descriptor", "make_wgmma_descriptor"),
             Plant("  (void)layout, (void)tile_address, (void)rows, (void)k16, (void)row0;\n"
                   "  return 0;  // TODO",
                   "  return {call}(layout, tile_address, rows, k16, row0);")),
    Function(EX2A, "predicted_reads_right", ("predicted_reads_right",),
             Plant("  (void)pairing;\n  return kNotImplemented;  // TODO",
                   "  return {call}(pairing);")),
    Function(EX2BC, "c_tile_pitch", ("c_tile_pitch",),
             Plant("  return kBlockN;  // TODO", "  return {call}();")),
] + [
    Prediction(EX2BC, f"predicted_epilogue_wavefronts({pitch})", epilogue_store(pitch),
               Plant("  (void)pitch;\n  return kNotImplemented;  // TODO",
                     f"  if (pitch == {pitch}) return {{value}};\n"
                     "  (void)pitch;\n  return kNotImplemented;  // TODO"),
               measured=(rf"counted\.epilogue\.pitch{pitch}",))
    for pitch in ASKED
]
