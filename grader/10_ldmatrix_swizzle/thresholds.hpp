/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_plain", 2.5, Bound::kAtLeast, "gemm.speedup_over_plain", 1.2,
     "To calibrate on the H200."},
    {"reference_speedup_over_plain", 3.0, Bound::kAtLeast, "gemm.speedup_over_plain", 1.0,
     "The reference must reach 3x the grader's plain tile on the full H200 (issue 14)."},
    {"reference_fraction_of_cublas", 0.5, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "The reference must reach 0.5 of cublasGemmEx on the full H200 (issue 14)."},
    {"reference_ldmatrix_wavefronts_swizzled", 4, Bound::kAtMost,
     "counted.ldmatrix_x4.rows128.swizzled", 1.0,
     "The swizzled 128-byte-row tile's ldmatrix.x4 takes its ideal 4 wavefronts on the H200."},
};

}  // namespace grader::chapter
