// Chapter 10: what the GPU checks run on the device, callable from host code (work in
// progress: the unswizzled baseline kernel and cublasGemmEx come next).
#pragma once

#include <cuda_fp16.h>

namespace ch10::probes {

/// Launches your tc_gemm_kernel with the contract's block, grid and dynamic shared memory.
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);

}  // namespace ch10::probes
