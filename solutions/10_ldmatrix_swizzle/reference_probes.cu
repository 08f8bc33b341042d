// Chapter 10, the maintainers' probes (solution mode only: grader/tools/make_grader_unit.py
// pastes this file after the exercise and the device probes). See reference_probes.hpp.
#include "solutions/10_ldmatrix_swizzle/reference_probes.hpp"

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/cuda/cuda_check.hpp"

namespace ch10::reference_probes {

namespace {

// The contract's kernel on a tile of the caller's. Tile::at(row, chunk) is the byte of an
// operand's slot where chunk `chunk` of row `row` lives; it repeats every 16 rows (at(row + 16 j,
// c) = at(row, c) + at(16 j, 0)). A complete answer of exercise 3 for the swizzled tile: it
// stays with the instructors.
template <typename Tile>
__global__ void __launch_bounds__(kTcThreads, 2)
    tc_gemm_with_tile(const __half* A, const __half* B, float* C, int N, int K) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock;
  const int n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);
  const int steps = K / kTcKStep;
  const int load_row = t / 8, load_chunk = t % 8;
  const int store_at = Tile::at(load_row, load_chunk);
  const int rows16_shared = Tile::at(16, 0), rows16 = 16 * K;
  const __half* a_src = A + static_cast<long long>(m0 + load_row) * K + 8 * load_chunk;
  const __half* b_src = B + static_cast<long long>(n0 + load_row) * K + 8 * load_chunk;
  const auto load_stage = [&](int stage, int step) {
    const unsigned to = base + static_cast<unsigned>(stage * 2 * kTcSlotBytes + store_at);
    const int k0 = step * kTcKStep;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const unsigned rows = static_cast<unsigned>(i * rows16_shared);
      ptx::cp_async_16(to + rows, a_src + static_cast<long long>(i) * rows16 + k0);
      ptx::cp_async_16(to + rows + kTcSlotBytes, b_src + static_cast<long long>(i) * rows16 + k0);
    }
  };
  int read_at[kTcKStep / 16];
#pragma unroll
  for (int kk = 0; kk < kTcKStep / 16; ++kk) read_at[kk] = Tile::at(lane % 16, 2 * kk + lane / 16);
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
    const unsigned a_tile = base + static_cast<unsigned>(step % kTcStages * 2 * kTcSlotBytes);
#pragma unroll
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      unsigned a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int a_piece = Tile::at(wm + 16 * i, 0);
        const int b_piece = kTcSlotBytes + Tile::at(wn + 16 * i, 0);
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

template <typename Tile>
void launch_with_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  GPU_CHECK(cudaFuncSetAttribute(tc_gemm_with_tile<Tile>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, kTcSharedBytes));
  tc_gemm_with_tile<Tile>
      <<<dim3(N / kTcBlock, M / kTcBlock), kTcThreads, kTcSharedBytes>>>(A, B, C, N, K);
}

// Every chunk where the plain layout puts it.
struct PlainTile {
  static __device__ __forceinline__ int at(int row, int chunk) {
    return row * kTcRowBytes + 16 * chunk;
  }
};

// Rows padded by one 16-byte chunk (the whole slot).
struct PaddedTile {
  static __device__ __forceinline__ int at(int row, int chunk) {
    return row * (kTcRowBytes + 16) + 16 * chunk;
  }
};

// Swizzle<3, 4, 3> on the plain tile's byte offsets: chunk c of row r at chunk c ^ (r % 8).
struct SwizzledTile {
  static __device__ __forceinline__ int at(int row, int chunk) {
    const int plain = row * kTcRowBytes + 16 * chunk;
    return plain ^ ((plain >> 3) & 0x70);
  }
};

}  // namespace

void launch_plain_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  launch_with_tile<PlainTile>(A, B, C, M, N, K);
}

void launch_padded_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  launch_with_tile<PaddedTile>(A, B, C, M, N, K);
}

void launch_swizzled_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  launch_with_tile<SwizzledTile>(A, B, C, M, N, K);
}

}  // namespace ch10::reference_probes
