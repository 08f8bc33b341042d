"""Chapter 09's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex2", "as_pitch", ("as_pitch", "a_tile_pitch", "transposed_pitch"),
             Plant("  return block_m;  // TODO: conflict-free for the transposed store",
                   "  return {call}(block_m);"),
             local="block_m <= 128"),
    Function("ex2", "as_offset", ("as_offset", "a_tile_offset", "transposed_offset"),
             Plant("  return k * kBlockM + m;  // TODO: conflict-free for the transposed store",
                   "  return {call}(k, m);")),
    Function("ex2", "thread_row", ("thread_row", "owned_row"),
             Plant("  return 8 * (thread / 16) + 4 * half;  // TODO",
                   "  return {call}(thread, half);")),
    Function("ex2", "thread_col", ("thread_col", "owned_col"),
             Plant("  return 8 * (thread % 16) + 4 * half;  // TODO",
                   "  return {call}(thread, half);")),
    Kernel("ex2_correct", "sgemm_kernel",
           ("sgemm_kernel", "register_blocked_sgemm", "blocked_sgemm_kernel")),
]
