/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"cost_fit_r_squared", 0.90, Bound::kAtLeast, "fit.r_squared", 1.05,
     "As chapter 01, for the student's own microbenchmark over 16 strides: correct predictions "
     "fit its cycles almost exactly on H200."},
    {"cycles_per_wavefront", 0.5, Bound::kAtLeast, "fit.cycles_per_wavefront", 2.0,
     "Each extra wavefront costs about 2 SM cycles on H200; a flat fit means the predictions or "
     "the microbenchmark do not see the conflicts."},
    {"max_residual_wavefronts", 0.75, Bound::kAtMost, "fit.max_residual_wavefronts", 2.0,
     "No stride may sit more than 0.75 wavefronts' cost off the line: an off-by-one "
     "prediction lands about 0.9 away."},
    {"layout_speedup", 1.25, Bound::kAtLeast, "owner_sums.speedup_over_thread_major", 1.2,
     "owner_sums_kernel with a conflict-free layout against the 32-way thread-major one, 2^21 "
     "owners, same run. On H200 the padded layout reached 1.52x (0.86 of copy against 0.56): "
     "eight warps per block hide much of the conflict, so the margin is modest."},
};

}  // namespace grader::chapter
