// Chapter 10 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit. The grader's own kernel, the baseline your
// speed is measured against, is built another way (nvcuda::wmma from a tile filled through
// registers): it holds no cp.async fill and no ldmatrix address.
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"

#include <cublas_v2.h>
#include <mma.h>

#include <stdexcept>
#include <string>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/cuda/cublas_handle.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch10::probes {

namespace probe_code {

// Fills the shared memory of every SM with 0xff bytes (fp16 NaN), so that a block of the next
// kernel that reads a stage before its copies land reads NaN, not what an earlier block left.
__global__ void poison_shared_kernel(int bytes) {
  extern __shared__ unsigned char shared[];
  for (int i = static_cast<int>(threadIdx.x); i < bytes / 16; i += static_cast<int>(blockDim.x)) {
    reinterpret_cast<uint4*>(shared)[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
  }
}

}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

void launch_yours_on_poisoned_shared(const __half* A, const __half* B, float* C, int M, int N,
                                     int K) {
  int device = 0, sms = 0, bytes = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPU_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  bytes = bytes / 16 * 16;
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(poison_shared_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  gpu::launch(poison_shared_kernel, sms, 1024, bytes, bytes);
  GPU_CHECK(cudaGetLastError());
  launch_yours(A, B, C, M, N, K);
}

void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K) {
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(tc_gemm_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, kTcSharedBytes));
  gpu::launch(tc_gemm_kernel, dim3(N / kTcBlock, M / kTcBlock), kTcThreads, kTcSharedBytes, A, B, C,
              M, N, K);
}

namespace probe_code {

// The baseline: the same block and warp tiling without cp.async or ldmatrix. Each K-step of 64
// halves goes through registers into a plain 128 x 64 tile (no pipeline), and nvcuda::wmma
// reads 16 x 16 fragments from it and multiplies them (m16n16k16, fp32 accumulation).
__global__ void __launch_bounds__(kTcThreads)
    wmma_baseline_kernel(const __half* A, const __half* B, float* C, int N, int K) {
  using namespace nvcuda;
  __shared__ __align__(128) __half a_tile[kTcBlock * kTcKStep], b_tile[kTcBlock * kTcKStep];
  const int t = static_cast<int>(threadIdx.x), warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock;
  const int n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][4];
  for (auto& row : acc) {
    for (auto& f : row) wmma::fill_fragment(f, 0.0f);
  }
  constexpr int kVectors = kTcBlock * kTcKStep / 8;  // 16-byte vectors of one tile
  for (int k0 = 0; k0 < K; k0 += kTcKStep) {
    uint4 a_in[kVectors / kTcThreads], b_in[kVectors / kTcThreads];
    for (int v = 0; v < kVectors / kTcThreads; ++v) {
      const int e = t + kTcThreads * v, row = e / 8, col = 8 * (e % 8);
      a_in[v] =
          *reinterpret_cast<const uint4*>(A + static_cast<long long>(m0 + row) * K + k0 + col);
      b_in[v] =
          *reinterpret_cast<const uint4*>(B + static_cast<long long>(n0 + row) * K + k0 + col);
    }
    __syncthreads();  // every warp is done with the previous K-step's tiles
    for (int v = 0; v < kVectors / kTcThreads; ++v) {
      reinterpret_cast<uint4*>(a_tile)[t + kTcThreads * v] = a_in[v];
      reinterpret_cast<uint4*>(b_tile)[t + kTcThreads * v] = b_in[v];
    }
    __syncthreads();
    for (int kk = 0; kk < kTcKStep; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[4];
      for (int i = 0; i < 4; ++i) {
        wmma::load_matrix_sync(fa[i], a_tile + (wm + 16 * i) * kTcKStep + kk, kTcKStep);
        wmma::load_matrix_sync(fb[i], b_tile + (wn + 16 * i) * kTcKStep + kk, kTcKStep);
      }
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
      }
    }
  }
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      wmma::store_matrix_sync(C + static_cast<long long>(m0 + wm + 16 * i) * N + n0 + wn + 16 * j,
                              acc[i][j], N, wmma::mem_row_major);
    }
  }
}

}  // namespace probe_code

void launch_wmma_baseline(const __half* A, const __half* B, float* C, int M, int N, int K) {
  gpu::launch(wmma_baseline_kernel, dim3(N / kTcBlock, M / kTcBlock), kTcThreads, 0, A, B, C, N, K);
}

void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K) {
  gpu::cublas_gemm_half_abt(A, B, C, M, N, K);
}

}  // namespace ch10::probes
