/// @file cublas_handle.hpp
/// @brief One cuBLAS handle for the whole run, and the fp16 GEMM the tensor-core chapters are
/// measured against, for the graders that use cuBLAS (their chapter's meson.build adds the cublas
/// module).
#pragma once

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace gpu {

/// The run's cuBLAS handle, created on first use; throws std::runtime_error naming the status
/// when cuBLAS cannot start.
inline cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t created = nullptr;
    const cublasStatus_t s = cublasCreate(&created);
    if (s != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error(std::string("cublasCreate failed: ") + cublasGetStatusString(s));
    }
    return created;
  }();
  return handle;
}

/// C = A B^T with cublasGemmEx (fp16 in, fp32 compute and out): A is M x K and B is N x K halves,
/// C is M x N floats, all row-major (the layout of the workbook's GEMM exercises). Throws
/// std::runtime_error naming the status when cuBLAS fails.
inline void cublas_gemm_half_abt(const void* A, const void* B, float* C, int M, int N, int K) {
  // Row-major C (M x N) is column-major C^T (N x M) = B A^T. B row-major N x K is column-major
  // K x N (B^T): transpose it; A row-major M x K is column-major K x M (A^T): as it is.
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t s =
      cublasGemmEx(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, K, A,
                   CUDA_R_16F, K, &zero, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cublasGemmEx failed: ") + cublasGetStatusString(s));
  }
}

}  // namespace gpu
