/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds (work in progress: exercise 3's speed thresholds against
/// the unswizzled tile and cuBLAS come with it, calibrated on the H200).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"reference_ldmatrix_wavefronts_swizzled", 4, Bound::kAtMost,
     "counted.ldmatrix_x4.rows128.swizzled", 1.0,
     "The swizzled 128-byte-row tile's ldmatrix.x4 takes its ideal 4 wavefronts on the H200."},
};

}  // namespace grader::chapter
