// Chapter 10 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit.
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/cuda/cuda_check.hpp"

namespace ch10::probes {

void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K) {
  GPU_CHECK(cudaFuncSetAttribute(tc_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 kTcSharedBytes));
  tc_gemm_kernel<<<dim3(N / kTcBlock, M / kTcBlock), kTcThreads, kTcSharedBytes>>>(A, B, C, M, N,
                                                                                   K);
}

}  // namespace ch10::probes
