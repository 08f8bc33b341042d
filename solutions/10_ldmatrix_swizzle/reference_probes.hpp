// Chapter 10, the maintainers' probes: the contract's kernel with the lesson's plain, padded and
// swizzled tiles, which a hand-out must not hold (each is exercise 3's answer but for its tile).
#pragma once

#include <cuda_fp16.h>

namespace ch10::reference_probes {

/// The contract's kernel (the reference's pipeline, fragments and mma) with the tile plain
/// (128-byte rows), its rows padded to 144 bytes (the whole slot), or swizzled with
/// Swizzle<3, 4, 3> (the reference's choice). Launch only.
void launch_plain_tile(const __half* A, const __half* B, float* C, int M, int N, int K);
void launch_padded_tile(const __half* A, const __half* B, float* C, int M, int N, int K);
void launch_swizzled_tile(const __half* A, const __half* B, float* C, int M, int N, int K);

}  // namespace ch10::reference_probes
