/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_classic", 3.0, Bound::kAtLeast, "gemm.speedup_over_classic", 1.15,
     "The register-blocked SGEMM against the grader's classic kernel (32 x 32 shared tiles, one "
     "output per thread), 4096^3 fp32, same run. PROVISIONAL until the first H200 run."},
    {"reference_fraction_of_cublas", 0.75, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "The reference solution itself must reach 0.75 of cublasSgemm on the full H200 (issue 13). "
     "PROVISIONAL until the first H200 run."},
};

}  // namespace grader::chapter
