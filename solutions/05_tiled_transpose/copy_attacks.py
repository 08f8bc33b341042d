"""Chapter 05's graded items for the copy attack (tools/maintainer/copy_attack_items.py)."""
from copy_attack_items import Kernel

ITEMS = [
    # A complete tiled transpose in grader code: this chapter's, or the padded one a later
    # chapter's old grader held (as fast, and correct under this contract).
    Kernel("ex1_correct", "tiled_transpose_kernel",
           ("tiled_transpose_kernel", "tiled_kernel", "padded_experiment_kernel")),
]
