"""Chapter 02's graded items, for the copy attacks (tools/maintainer/copy_attacks.py): what an
answer taken from the hand-out would look like, and where it would go in the skeleton."""
from copy_attack_items import Function, Kernel, Plant, Prediction, request

EX1 = "ex1"
EX2 = "ex2_counters"
EX3 = "ex3"

TODO = "  return kNotImplemented;  // TODO"


def worked_by_the_lessons(stride, size):
    """As grader/02_strides/stride_spec.hpp: the pairs no check grades."""
    return stride <= 3 or stride in (32, 33) if size == 4 else size == 1 and stride == 1


# Exercise 1's graded pairs (the hand-out's): strides 0..64 whose byte stride is a multiple of 4
# or below 4, less those the lessons work. Each found answer is planted as one more case.
GRADED = [(stride, size) for size in (4, 2, 1) for stride in range(65)
          if (stride * size % 4 == 0 or stride * size < 4)
          and not worked_by_the_lessons(stride, size)]

ITEMS = [
    Prediction(EX1, f"predicted_wavefronts({stride}, {size})",
               request(size, "load", lambda t, s=stride * size: s * t),
               Plant(TODO, f"  if (stride == {stride} && element_bytes == {size}) "
                           f"return {{value}};\n" + TODO),
               # The microbenchmark's counts of floats (exercise 2's GPU check records them).
               measured=(rf"counted_wavefronts\.stride{stride}",) if size == 4 else ())
    for stride, size in GRADED
] + [
    Function(EX1, "predicted_wavefronts",
             ("predicted_wavefronts", "gcd_wavefronts", "stride_wavefronts"),
             Plant(TODO, "  return {call}(stride, element_bytes);")),
    Function(EX3, "staged_index", ("staged_index", "padded_staged_index", "padded_index"),
             Plant("  return owner * kValuesPerThread + i;", "  return {call}(owner, i);")),
    Kernel(EX2, "stride_probe_kernel", ("stride_probe_kernel", "reference_stride_probe_kernel")),
]
