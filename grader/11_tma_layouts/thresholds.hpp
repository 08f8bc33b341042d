/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_naive", 5.0, Bound::kAtLeast, "transpose.speedup_over_naive", 1.2,
     "The TMA transpose against the naive one, 8192 x 8192 floats, same run. The previous "
     "reference (one box a stage) measured 6.97x on the full H200 (0.90 of copy), 13.3x and "
     "14.5x on slices of 25% and 10% of its SMs: 5.0 leaves it 39% margin; the reference of two "
     "boxes a stage measured 0.92-0.93 of copy in a standalone bench on the H200 (2026-12-01). "
     "Speed cannot reject conflicted reads (the old skeleton's plain boxes: 6.48x, 0.84 of "
     "copy); the counters check does."},
    {"reference_fraction_of_copy", 0.90, Bound::kAtLeast, "transpose.fraction_of_copy", 1.0,
     "The reference must reach 0.90 of the device copy on the full H200 (issue 25 asked 0.95: "
     "the best TMA-fed design measured, two 64 x 32 boxes a stage, 4 stages, tiles numbered "
     "down the columns, two rounds of stages per block, reached 0.93 in a standalone bench; "
     "one box a stage 0.89; every variant tried stayed below 0.95)."},
};

}  // namespace grader::chapter
