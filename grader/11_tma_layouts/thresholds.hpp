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
     "14.5x on slices of 25% and 10% of its SMs; the reference of two boxes a stage measured "
     "7.09x (0.934 of copy) on the full H200 (2026-12-01): 5.0 leaves it 42% margin. "
     "Speed cannot reject conflicted reads (the old skeleton's plain boxes: 6.48x, 0.84 of "
     "copy); the counters check does."},
    {"reference_fraction_of_copy", 0.90, Bound::kAtLeast, "transpose.fraction_of_copy", 1.0,
     "The reference must reach 0.90 of the device copy on the full H200 (issue 25 asked 0.95: "
     "the best TMA-fed design measured, two 64 x 32 boxes a stage, 4 stages, tiles numbered "
     "down the columns, two rounds of stages per block, measured 0.934 in the grader; one box a "
     "stage 0.89; every variant tried in a standalone bench stayed below 0.95)."},
};

}  // namespace grader::chapter
