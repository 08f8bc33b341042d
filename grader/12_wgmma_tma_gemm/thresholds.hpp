/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_baseline", 4.0, Bound::kAtLeast, "gemm.speedup_over_baseline", 1.2,
     "The TMA + wgmma kernel (k128B) against the grader's baseline (wmma fragments loaded from "
     "global memory, no shared memory), 4096^3 fp16, timed in turns in the same run. The "
     "reference measured 9.11x on the full H200 (671 against 74 TFLOP/s), 11.2x and 10.7x on "
     "slices of 25% and 10% of its SMs: 4.0 leaves it more than twice the margin everywhere."},
    {"reference_fraction_of_cublas", 0.85, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "The reference against the faster of cublasGemmEx and cuBLASLt's first four heuristic "
     "choices (fp16 in, fp32 compute), 4096^3, in turns. Issue 26 asked for 0.95 on the H200: "
     "the reference (one output tile per block, its epilogue after its k-loop, the ring's "
     "length fixed at compile time, tiles taken in groups of M-tiles) measured 0.951 and 0.956 "
     "there in two runs (671 against cuBLASLt's 701 TFLOP/s in the second), 0.99 at 8192^3, "
     "and 0.92 and 0.95 on slices of 25% and 10% of the SMs. The bar sits at 0.85, below every run, so that the reference's "
     "check does not fail on a warm GPU's noise."},
};

}  // namespace grader::chapter
