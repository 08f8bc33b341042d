"""Chapter 02's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "predicted_wavefronts",
             ("predicted_wavefronts", "gcd_wavefronts", "stride_wavefronts"),
             Plant("  return kNotImplemented;  // TODO", "  return {call}(stride, element_bytes);")),
    Function("ex3", "staged_index", ("staged_index", "padded_staged_index", "padded_index"),
             Plant("  return owner * kValuesPerThread + i;", "  return {call}(owner, i, threads);"),
             local="threads <= 256"),
    Kernel("ex2_counters", "stride_probe_kernel",
           ("stride_probe_kernel", "reference_stride_probe_kernel")),
]
