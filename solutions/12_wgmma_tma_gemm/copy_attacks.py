"""Chapter 12's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Function, Plant

ITEMS = [
    Function("ex1", "wgmma_descriptor", ("wgmma_descriptor", "make_wgmma_descriptor"),
             Plant("  (void)layout, (void)tile_address, (void)rows, (void)k16, (void)row0;\n"
                   "  return 0;  // TODO",
                   "  return {call}(layout, tile_address, rows, k16, row0);"),
             local="(tile_address == 0x400u || tile_address == 0x9000u || tile_address == "
                   "0x1c000u) && (rows == 64 || rows == 128 || rows == 256)"),
    Function("ex2a", "predicted_reads_right", ("predicted_reads_right",),
             Plant("  (void)pairing;\n  return kNotImplemented;  // TODO",
                   "  return {call}(pairing);")),
    Function("ex2b_2c", "c_tile_pitch", ("c_tile_pitch",),
             Plant("  return kBlockN;  // TODO", "  return {call}();")),
]
