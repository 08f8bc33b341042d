// Chapter 10: what the GPU checks run on the device, callable from host code.
#pragma once

#include <cuda_fp16.h>

namespace ch10::probes {

/// Launches your tc_gemm_kernel with the contract's block, grid and dynamic shared memory
/// (M, N multiples of 128, K of 64).
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);

/// The grader's own tensor-core tiles: the contract's kernel (same pipeline, fragments and mma)
/// with the tile plain (128-byte rows, 32 wavefronts per ldmatrix.x4), padded to 144-byte rows,
/// or swizzled with Swizzle<3,4,3>. The plain one is the baseline your speed is measured against.
enum class GraderTile { kPlain, kPadded16, kSwizzled };
void launch_grader(GraderTile tile, const __half* A, const __half* B, float* C, int M, int N,
                   int K);

/// C = A B^T (A M x K, B N x K row-major fp16, C M x N row-major fp32) with cublasGemmEx, fp32
/// compute. One handle for the whole run; throws std::runtime_error naming the cuBLAS status
/// when a call fails.
void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K);

/// Element-wise |x| of n halves, in place on the device.
void absolute_values(__half* x, long long n);

}  // namespace ch10::probes
