"""Chapter 11's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "tma_smem_offset", ("tma_smem_offset", "offset"),
             Plant("  (void)mode;\n  return row * box_row_bytes + byte;  // TODO: the three "
                   "swizzled modes", "  return {call}(mode, box_row_bytes, row, byte);"),
             local="box_row_bytes <= 256 && row < (box_row_bytes < 128 ? 2048 / box_row_bytes : 16)"),
    Function("ex2b_2c", "least_padded_pitch", ("least_padded_pitch",),
             Plant("int least_padded_pitch() {\n  return kNotImplemented;",
                   "int least_padded_pitch() {\n  return {call}();")),
    # Exercise 3: the mode of the transpose's boxes (3a) and the kernel's pipeline (3b). No
    # grader holds a transpose of its own: a leaked one would go by these names.
    Kernel("ex3b_counters", "tma_transpose_kernel",
           ("tma_transpose_kernel", "reference_tma_transpose")),
]
