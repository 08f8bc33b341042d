/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"cost_fit_r_squared", 0.90, Bound::kAtLeast, "fit.r_squared", 1.05,
     "Load latency of one warp grows linearly with wavefronts (about 2 cycles each on H200), so "
     "correct predictions fit the measured cycles almost exactly; one wrong prediction for a "
     "32-way or broadcast pattern drops R^2 far below 0.9."},
    {"cycles_per_wavefront", 0.5, Bound::kAtLeast, "fit.cycles_per_wavefront", 2.0,
     "Each extra wavefront costs the warp about 2 SM cycles on H200; a fit with a slope near 0 "
     "means the predictions do not explain the measured cost."},
    {"max_residual_wavefronts", 0.75, Bound::kAtMost, "fit.max_residual_wavefronts", 2.0,
     "The pattern farthest from the fitted line, in units of one wavefront's cost. On H200 the "
     "reference lies on the line (0.00); a prediction off by one wavefront (stride 2 predicted "
     "conflict-free) lands 0.86 away, off by three (bytes predicted 4-way) 2.6 away."},
};

}  // namespace grader::chapter
