/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_baseline", 3.0, Bound::kAtLeast, "gemm.speedup_over_baseline", 1.2,
     "PROVISIONAL until the H200 run."},
    {"reference_fraction_of_cublas", 0.85, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "PROVISIONAL until the H200 run."},
};

}  // namespace grader::chapter
