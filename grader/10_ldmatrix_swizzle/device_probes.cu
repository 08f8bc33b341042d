// Chapter 10 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit. The grader's own kernel is the contract's
// with the tile plain: the baseline your speed is measured against, and no answer.
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/cuda/cublas_handle.hpp"
#include "common/cuda/cuda_check.hpp"

namespace ch10::probes {

void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K) {
  GPU_CHECK(cudaFuncSetAttribute(tc_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 kTcSharedBytes));
  tc_gemm_kernel<<<dim3(N / kTcBlock, M / kTcBlock), kTcThreads, kTcSharedBytes>>>(A, B, C, M, N,
                                                                                   K);
}

// The contract's kernel on a tile of the caller's, written apart from the exercise so that the
// baseline does not depend on the file under grade. Tile::at(row, chunk) is the byte where an
// operand's tile keeps chunk `chunk` of row `row`; it must repeat every 16 rows (at(row + 16 j,
// c) = at(row, c) + at(16 j, 0)). Tile::kBytes is the bytes one operand's tile takes.
template <typename Tile>
__global__ void __launch_bounds__(kTcThreads, 2)
    tc_gemm_with_tile(const __half* A, const __half* B, float* C, int N, int K) {
  extern __shared__ __align__(1024) unsigned char smem[];
  constexpr int kTile = Tile::kBytes;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock;
  const int n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);
  const int steps = K / kTcKStep;
  // Each thread places its first row once and steps by 16 rows.
  const int load_row = t / 8, load_chunk = t % 8;
  const int store_at = Tile::at(load_row, load_chunk);
  const int rows16_shared = Tile::at(16, 0), rows16 = 16 * K;
  const __half* a_src = A + static_cast<long long>(m0 + load_row) * K + 8 * load_chunk;
  const __half* b_src = B + static_cast<long long>(n0 + load_row) * K + 8 * load_chunk;
  const auto load_stage = [&](int stage, int step) {
    const unsigned to = base + static_cast<unsigned>(stage * 2 * kTile + store_at);
    const int k0 = step * kTcKStep;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const unsigned rows = static_cast<unsigned>(i * rows16_shared);
      ptx::cp_async_16(to + rows, a_src + static_cast<long long>(i) * rows16 + k0);
      ptx::cp_async_16(to + rows + kTile, b_src + static_cast<long long>(i) * rows16 + k0);
    }
  };
  int read_at[kTcKStep / 16];
#pragma unroll
  for (int kk = 0; kk < kTcKStep / 16; ++kk) {
    read_at[kk] = Tile::at(lane % 16, 2 * kk + lane / 16);
  }
  float acc[4][8][4] = {};
#pragma unroll
  for (int s = 0; s < kTcStages - 1; ++s) {
    if (s < steps) load_stage(s, s);
    ptx::cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    ptx::cp_async_wait<kTcStages - 2>();
    __syncthreads();
    const int next = step + kTcStages - 1;
    if (next < steps) load_stage(next % kTcStages, next);
    ptx::cp_async_commit();
    const unsigned a_tile = base + static_cast<unsigned>(step % kTcStages * 2 * kTile);
#pragma unroll
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      unsigned a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int a_piece = Tile::at(wm + 16 * i, 0);
        const int b_piece = kTile + Tile::at(wn + 16 * i, 0);
        ptx::ldmatrix_x4(a_tile + static_cast<unsigned>(a_piece + read_at[kk]), a[i]);
        ptx::ldmatrix_x4(a_tile + static_cast<unsigned>(b_piece + read_at[kk]), b[i]);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          ptx::mma_m16n8k16(acc[i][2 * j], a[i], b[j][0], b[j][2]);
          ptx::mma_m16n8k16(acc[i][2 * j + 1], a[i], b[j][1], b[j][3]);
        }
      }
    }
  }
  ptx::cp_async_wait<0>();
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int row = m0 + wm + 16 * i + lane / 4, col = n0 + wn + 8 * j + 2 * (lane % 4);
      float* c = C + static_cast<long long>(row) * N + col;
      *reinterpret_cast<float2*>(c) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(c + 8LL * N) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
  }
}

/// Launches tc_gemm_with_tile<Tile> with the contract's block and grid, and the dynamic shared
/// memory its tiles take.
template <typename Tile>
void launch_with_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  constexpr int bytes = kTcStages * 2 * Tile::kBytes;
  GPU_CHECK(cudaFuncSetAttribute(tc_gemm_with_tile<Tile>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  tc_gemm_with_tile<Tile><<<dim3(N / kTcBlock, M / kTcBlock), kTcThreads, bytes>>>(A, B, C, N, K);
}

namespace {

// The baseline's tile: every chunk where the shipped skeleton puts it.
struct PlainTile {
  static constexpr int kBytes = kTcBlock * kTcRowBytes;
  static __device__ __forceinline__ int at(int row, int chunk) {
    return row * kTcRowBytes + 16 * chunk;
  }
};

__global__ void absolute_kernel(__half* x, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __habs(x[i]);
}

}  // namespace

void launch_plain_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  launch_with_tile<PlainTile>(A, B, C, M, N, K);
}

void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K) {
  // Row-major C (M x N) is column-major C^T (N x M) = B A^T. B row-major N x K is column-major
  // K x N (B^T): transpose it; A row-major M x K is column-major K x M (A^T): as it is.
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t s = cublasGemmEx(gpu::cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, K,
                                        &one, B, CUDA_R_16F, K, A, CUDA_R_16F, K, &zero, C,
                                        CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cublasGemmEx failed: ") + cublasGetStatusString(s));
  }
}

void absolute_values(__half* x, long long n) {
  absolute_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n);
  GPU_CHECK(cudaGetLastError());
}

}  // namespace ch10::probes
