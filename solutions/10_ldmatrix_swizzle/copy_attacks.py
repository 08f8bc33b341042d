"""Chapter 10's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "swizzle", ("swizzle",),
             Plant("  (void)b;\n  (void)m;\n  (void)s;\n  return offset;  // TODO: as shipped, "
                   "the identity", "  return {call}(b, m, s, offset);"),
             local="b <= 3 && m <= 4 && b <= s && s <= 4 && offset < 1 << 15"),
    Function("ex2a", "chosen_swizzle", ("chosen_swizzle",),
             Plant("  (void)row_bytes;\n  return {};  // TODO", "  return {call}(row_bytes);"),
             local="row_bytes <= 128"),
    Function("ex3a", "fill_copy", ("fill_copy",),
             Plant("  (void)t;\n  (void)i;\n  return {};  // TODO: as shipped, kNotImplemented",
                   "  return {call}(t, i);")),
    Function("ex3b", "fragment_offset", ("fragment_offset",),
             Plant("  (void)lane;\n  (void)row0;\n  (void)kk;\n  return kNotImplemented;  // TODO",
                   "  return {call}(lane, row0, kk);")),
    # The names a complete kernel in grader code would go by.
    Kernel("ex3_counters", "tc_gemm_kernel",
           ("grader_offset", "grader_tc_gemm", "tc_gemm_with_tile")),
]
