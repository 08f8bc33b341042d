"""Chapter 08's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Kernel, Plant

ITEMS = [
    Function("ex1", "swizzled_chunk", ("swizzled_chunk", "chunk_swizzle", "swizzle_chunk"),
             Plant("  return row * 4 * row_chunks + 4 * chunk;",
                   "  return {call}(row, chunk, row_chunks);"),
             local="row_chunks <= 16"),
    Function("ex1", "tile_chunk_offset", ("tile_chunk_offset", "chunk_offset", "swizzled_offset"),
             Plant("  return row * kTile + 4 * chunk;", "  return {call}(row, chunk);")),
    Kernel("ex2_correct", "wide_transpose_kernel",
           ("wide_transpose_kernel", "float4_transpose_kernel", "wide_kernel")),
]
