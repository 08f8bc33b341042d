/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_wmma", 2.5, Bound::kAtLeast, "gemm.speedup_over_wmma", 1.2,
     "The tensor-core tile against the grader's wmma kernel (the same block and warp tiling, each "
     "K-step copied through registers into a plain tile, nvcuda::wmma fragments), 4096^3 fp16, "
     "timed in turns in the same run. The grader's run of issue 25 on the H200 measured 3.32x "
     "for the reference on the full GPU, 3.53x and 3.58x on slices of 25% and 10% of the SMs, "
     "and the maintainers' plain tile at 0.17 of cuBLAS against the wmma kernel's 0.17 (about "
     "1x): 2.5 leaves the reference 33% margin and rejects a plain tile by far. The counters "
     "check, not speed, demands ideal wavefronts (a "
     "padded tile passes this bar and fails that check)."},
    {"reference_speedup_over_wmma", 3.0, Bound::kAtLeast, "gemm.speedup_over_wmma", 1.0,
     "The reference must reach 3x the grader's wmma kernel on the full H200; the grader's run of "
     "issue 25 measured 3.32x (a standalone run before it 3.45x)."},
    {"reference_fraction_of_cublas", 0.45, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "The reference against cublasGemmEx (fp16 in, fp32 compute) on the full H200. Issue 14 asked "
     "for 0.5; the run of issue 24 measured 0.498 (cuBLAS at 705 TFLOP/s), that of issue 25 0.551 "
     "(cuBLAS at 603 TFLOP/s), other runs of the same kernel 0.52-0.59 (the self-test that times "
     "the same kernel without cp.async.wait_group: "
     "0.588), so 0.5 does not hold in every run and the bar sits at 0.45. mma.sync is not "
     "Hopper's fastest path (cuBLAS uses the warpgroup instructions)."},
};

}  // namespace grader::chapter
