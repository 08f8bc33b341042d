// Chapter 10: what the GPU checks run on the device, callable from host code.
#pragma once

#include <cuda_fp16.h>

namespace ch10::probes {

/// Launches your tc_gemm_kernel with the contract's block, grid and dynamic shared memory
/// (M, N multiples of 128, K of 64).
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);

/// launch_yours() after a kernel that fills every SM's shared memory with fp16 NaN: a stage
/// read before its copies land (a wait_group count too low, a barrier missing) reads NaN, not
/// what an earlier block left there. For the correctness checks; not timed.
void launch_yours_on_poisoned_shared(const __half* A, const __half* B, float* C, int M, int N,
                                     int K);

/// The grader's own tensor-core kernel, the baseline your speed is measured against: the
/// contract's block and warp tiling (128 x 128, four warps of 64 x 64, K-steps of 64), but each
/// K-step copied through registers into a plain tile, no pipeline, and nvcuda::wmma fragments.
void launch_wmma_baseline(const __half* A, const __half* B, float* C, int M, int N, int K);

/// C = A B^T (A M x K, B N x K row-major fp16, C M x N row-major fp32) with cublasGemmEx, fp32
/// compute. One handle for the whole run; throws std::runtime_error naming the cuBLAS status
/// when a call fails.
void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K);

}  // namespace ch10::probes
