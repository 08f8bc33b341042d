// Chapter 10, the maintainers' probes: the lesson's padded and swizzled tiles of the contract's
// kernel, which a hand-out must not hold (the swizzled tile is exercise 3's answer).
#pragma once

#include <cuda_fp16.h>

namespace ch10::reference_probes {

/// The grader's kernel (grader/10_ldmatrix_swizzle/device_probes.cu, tc_gemm_with_tile) with
/// the tile's rows padded to 144 bytes (it takes 108 KiB of shared memory, more than the
/// contract's 96), or swizzled with Swizzle<3, 4, 3> (the reference's choice). Launch only.
void launch_padded_tile(const __half* A, const __half* B, float* C, int M, int N, int K);
void launch_swizzled_tile(const __half* A, const __half* B, float* C, int M, int N, int K);

}  // namespace ch10::reference_probes
