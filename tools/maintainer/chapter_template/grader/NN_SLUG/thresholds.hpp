/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_naive", 2.0, Bound::kAtLeast, "transpose.speedup_over_naive", 1.2,
     "Your transpose against the naive one (stride-n writes), 8192 x 8192 floats, same run: a "
     "ratio to a baseline on the same GPU, so it holds on GPUs with more or less bandwidth per "
     "SM. Say here what the H200 reference measured and why this value leaves it headroom."},
};


}  // namespace grader::chapter
