/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_naive", 5.0, Bound::kAtLeast, "transpose.speedup_over_naive", 1.2,
     "The TMA transpose against the naive one, 8192 x 8192 floats, same run. The reference of "
     "two boxes a stage measured 7.21x (0.945 of copy) on the full H200 in issue 25's last run, "
     "11.42x and 12.14x on slices of 25% and 10% of its SMs: 5.0 leaves it 44% margin. Speed "
     "cannot reject conflicted reads (the old skeleton's plain boxes: 6.48x, 0.84 of copy); the "
     "counters check does."},
    {"reference_fraction_of_copy", 0.90, Bound::kAtLeast, "transpose.fraction_of_copy", 1.0,
     "The reference must reach 0.90 of the device copy on the full H200. Issue 25 asked 0.95; "
     "the reference measured 0.934 and then 0.945 (once the bounded mbarrier wait stopped "
     "reading a global word on every try), the same kernel in the reference checks' timing "
     "0.939, and the same kernel without its ring (one stage, one output tile, a block for "
     "every tile) 0.969: the ring the exercise teaches costs a transpose about 3% of copy, so "
     "the bar stays at 0.90, which the ring holds with margin."},
};

}  // namespace grader::chapter
