"""Chapter 05's graded functions and kernels, for the copy attack
(tools/maintainer/copy_attacks.py): what an answer taken from the hand-out would look like, and
where it would go in the skeleton."""
from copy_attack_items import Kernel

ITEMS = [
    # A complete tiled transpose in grader code: this chapter's, or the padded one a later
    # chapter's old grader held (as fast, and correct under this contract).
    Kernel("ex1_correct", "tiled_transpose_kernel",
           ("tiled_transpose_kernel", "tiled_kernel", "padded_experiment_kernel")),
]
