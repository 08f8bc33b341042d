/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_classic", 4.0, Bound::kAtLeast, "gemm.speedup_over_classic", 1.2,
     "The register-blocked SGEMM against the grader's classic kernel (32 x 32 shared tiles, one "
     "output per thread), 4096^3 fp32, same run. In the H200 run of issue 25 the reference "
     "(pair-merged reads, K loop unrolled by two) measured 5.51x on the full GPU (0.975 of "
     "cuBLAS) and 5.76x and 5.75x on slices of 25% and 10% of the SMs; the simplest kernel the "
     "skeleton's outline allows (one buffer of each tile, two barriers per K-step, 8 distinct "
     "chunks per group of 8 lanes; variants.single_buffer_8quads.speedup_over_classic, timed by "
     "the reference checks, which fail if it does not clear this bar) 4.27x, 4.23x and 4.53x. "
     "So 4.0 stays where it was: it leaves the simplest correct design 6% margin on the slowest "
     "of the three, and rejects a kernel at the 0.60 of cuBLAS that scalar shared reads reached "
     "on the H200 (shared hardware reference, section 8; about 3.4x). Speed cannot reject the "
     "plain transposed tile: its 2-way store runs once per K-step and it measured as fast as the "
     "reference; the host layout check and the counters do."},
    {"reference_fraction_of_cublas", 0.92, Bound::kAtLeast, "gemm.fraction_of_cublas", 1.03,
     "The reference solution itself must reach 0.92 of cublasSgemm (about 51 TFLOP/s) on the full "
     "H200 (issue 25, was 0.75 in issue 13); it measured 0.975 in the grader's run of issue 25 "
     "(the "
     "standalone rounds before it 0.963-0.966)."},
};

}  // namespace grader::chapter
