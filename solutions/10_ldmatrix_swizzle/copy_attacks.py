"""Chapter 10's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

EX1 = "ex1"
EX2A = "ex2a"
EX2B = "ex2b"
EX3 = "ex3_counters"
EX3A = "ex3a"
EX3B = "ex3b"


def swizzle(b, m, s, offset):
    return offset ^ ((offset & (((1 << b) - 1) << (m + s))) >> s)


# The reference's exercise 2a: Swizzle<B, 4, 3> with B = 2 for 64-byte rows, 3 for 128.
CHOSEN = {64: (2, 4, 3), 128: (3, 4, 3)}

# (enumerator, name in the measurements, the comment of its skeleton line, byte address of
# the plain layout's byte `plain` of a tile with rows of `row_bytes`).
LAYOUTS = [
    ("kPlain", "plain", "plain", lambda rb, plain: plain),
    ("kPadded16", "padded16", "padded", lambda rb, plain: plain // rb * (rb + 16) + plain % rb),
    ("kSwizzled", "swizzled", "swizzled", lambda rb, plain: swizzle(*CHOSEN[rb], plain)),
]


def ldmatrix_x4(row_bytes, place):
    """Lane l gives row l % 16, chunk l / 16 (chunk 0 of exercise 2b's contract)."""
    return request(16, "ldmatrix.x4",
                   lambda t: place(row_bytes, (t % 16) * row_bytes + 16 * (t // 16)))


def skeleton_line(enumerator, row_bytes, comment, value):
    pad = " " * (len("kPadded16") - len(enumerator))
    return (f"    if (layout == Layout::{enumerator}) return {value};{pad}  // TODO: "
            f"{row_bytes}-byte rows, {comment}")


# What the old grader code held literally: the plain 128-byte tile's and the swizzled one's
# counts in device_probes.hpp and thresholds.hpp.
LEAKS = {
    (128, "kPlain"): (r"128-byte rows, (\d+) wavefronts per ldmatrix\.x4",),
    (128, "kSwizzled"): (r"reference_ldmatrix_wavefronts_swizzled\", (\d+),",
                         r"tile's ldmatrix\.x4 takes its ideal (\d+) wavefronts"),
}

ITEMS = [
    Function(EX1, "swizzle", ("swizzle",),
             Plant("  (void)b;\n  (void)m;\n  (void)s;\n  return offset;  // TODO: as shipped, "
                   "the identity", "  return {call}(b, m, s, offset);")),
    Function(EX2A, "chosen_swizzle", ("chosen_swizzle",),
             Plant("  (void)row_bytes;\n  return {};  // TODO", "  return {call}(row_bytes);"),
             leaks=(r"\{row_bytes == 128 \? (3) : 2, 4, 3\}",)),
] + [
    Prediction(EX2B, f"predicted_ldmatrix_wavefronts({row_bytes}, {enumerator})",
               ldmatrix_x4(row_bytes, place),
               Plant(skeleton_line(enumerator, row_bytes, comment, "kNotImplemented"),
                     skeleton_line(enumerator, row_bytes, comment, "{value}")),
               measured=(rf"counted\.ldmatrix_x4\.rows{row_bytes}\.{measured}",),
               leaks=LEAKS.get((row_bytes, enumerator), ()))
    for row_bytes in (64, 128)
    for enumerator, measured, comment, place in LAYOUTS
] + [
    Function(EX3A, "fill_copy", ("fill_copy",),
             Plant("  (void)t;\n  (void)i;\n  return {};  // TODO: as shipped, kNotImplemented",
                   "  return {call}(t, i);")),
    Function(EX3B, "fragment_offset", ("fragment_offset",),
             Plant("  (void)lane;\n  (void)row0;\n  (void)kk;\n  return kNotImplemented;  // TODO",
                   "  return {call}(lane, row0, kk);")),
    # Old hand-outs' graders held the complete kernel: the swizzled one (grader_offset, with the
    # Swizzle<3,4,3> branch, and grader_tc_gemm), then the plain tile's (tc_gemm_with_tile).
    Kernel(EX3, "tc_gemm_kernel", ("grader_offset", "grader_tc_gemm", "tc_gemm_with_tile")),
]
