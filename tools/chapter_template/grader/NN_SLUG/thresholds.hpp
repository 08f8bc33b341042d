/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it.
///
/// The measured quantity is read from this chapter's file in `measurements/h200/`; the chapter's
/// lesson checks fail when it no longer clears the threshold by the headroom given.
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_naive", 2.0, Bound::kAtLeast, "transpose.speedup_over_naive", 1.2,
     "Your transpose against the naive one (stride-n writes), 8192 x 8192 floats, same run: a "
     "ratio to a baseline on the same GPU, so it holds on GPUs with more or less bandwidth per "
     "SM. Say here what the H200 reference measured and why this value leaves it headroom."},
};

/// The threshold named `name` in the table above.
inline const Threshold& threshold(const char* name) { return find_threshold(kThresholds, name); }

}  // namespace grader::chapter
