"""Chapter 09's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

EX1 = "ex1"
EX1_HIDDEN = "hidden_tile"
EX2 = "ex2"
EX2C = "ex2_correct"

# (enumerator, short name of the GPU checks' measurements, store?, word of lane (tx, ty) at
# column k, whether it is in Bs): the seven accesses of the classic kernel.
ACCESSES = [
    ("kStoreAs", "store_As", True, False, lambda tile, tx, ty, k: ty * tile + tx),
    ("kStoreBs", "store_Bs", True, True, lambda tile, tx, ty, k: ty * tile + tx),
    ("kReadAsRow", "As_ty_k", False, False, lambda tile, tx, ty, k: ty * tile + k),
    ("kReadBsRow", "Bs_k_tx", False, True, lambda tile, tx, ty, k: k * tile + tx),
    ("kReadAsColumn", "As_tx_k", False, False, lambda tile, tx, ty, k: tx * tile + k),
    ("kReadAsTransposed", "As_k_ty", False, False, lambda tile, tx, ty, k: k * tile + ty),
    ("kReadBsColumn", "Bs_tx_k", False, True, lambda tile, tx, ty, k: tx * tile + k),
]


def classic_request(tile, store, in_bs, word):
    """Warp 0's request at column k = 5 % tile, as grader/09_tiled_gemm/gemm_spec.hpp states
    it: As at byte 0, Bs at the first multiple of 128 bytes after it, lanes past the block
    inactive."""
    bs = (4 * tile * tile + 127) // 128 * 128
    k = 5 % tile

    def address(t):
        if t >= tile * tile:
            return -1
        return (bs if in_bs else 0) + 4 * word(tile, t % tile, t // tile, k)
    return request(4, "store" if store else "load", address)


ITEMS = [
    Prediction(EX1 if tile in (16, 8) else EX1_HIDDEN, f"predicted_wavefronts({name}, {tile})",
               classic_request(tile, store, in_bs, word),
               Plant("  (void)tile;",
                     f"  if (access == Access::{name} && tile == {tile}) return {{value}};\n"
                     "  (void)tile;"),
               measured=(rf"counted\.tile{tile}\.{short}",))
    for tile in (16, 8, 4)
    for name, short, store, in_bs, word in ACCESSES
] + [
    Function(EX2, "as_offset", ("as_offset", "a_tile_offset", "transposed_offset"),
             Plant("  return k * kBlockM + m;  // TODO: conflict-free for the transposed store",
                   "  return {call}(k, m);")),
    Function(EX2, "thread_row", ("thread_row", "owned_row"),
             Plant("  return 8 * (thread / 16) + 4 * half;  // TODO",
                   "  return {call}(thread, half);")),
    Function(EX2, "thread_col", ("thread_col", "owned_col"),
             Plant("  return 8 * (thread % 16) + 4 * half;  // TODO",
                   "  return {call}(thread, half);")),
    Kernel(EX2C, "sgemm_kernel", ("sgemm_kernel", "register_blocked_sgemm", "blocked_sgemm_kernel")),
]
