// Chapter 09, reference solution. The contracts are in tiled_gemm.cuh.
#include "chapters/09_tiled_gemm/tiled_gemm.cuh"

namespace ch09 {

namespace {

// The largest power of two that divides `tile` and 32: gcd(tile, 32).
int gcd_with_32(int tile) {
  int g = 32;
  while (tile % g != 0) g /= 2;
  return g;
}

}  // namespace

int predicted_wavefronts(Access access, int tile) {
  // A warp is 32 consecutive thread numbers ty * tile + tx: rows of `tile` threads, the last one
  // cut short where `tile` does not divide 32, or for tile * tile < 32 the whole block, its
  // other lanes idle. Stores and row reads touch consecutive words, or one word per row that its
  // threads share (a broadcast) with fewer than 32 / tile + 2 rows, whose words `tile` apart
  // never meet in one bank: one wavefront.
  // A column read (As[tx][k], Bs[tx][k]) touches `tile` distinct words (every tx from 0 to
  // tile - 1 is in warp 0, shared by its rows), `tile` words apart: word tx * tile + k, in bank
  // (tx * tile + k) % 32. Stride `tile` meets 32 / g banks, g = gcd(tile, 32), and the tile
  // words fill them in turn: ceil(tile / (32 / g)) words in the fullest. 32 for tile 32, 8 for
  // 16 (banks k and k + 16), 2 for 8 and 12, 3 for 20, 1 for odd tiles and for 4.
  switch (access) {
    case Access::kStoreAs:
    case Access::kStoreBs:
    case Access::kReadAsRow:
    case Access::kReadBsRow:
    case Access::kReadAsTransposed: return 1;
    case Access::kReadAsColumn:
    case Access::kReadBsColumn: return (tile * gcd_with_32(tile) + 31) / 32;
  }
  return kNotImplemented;
}

// Rows of 132 floats: the transposed store writes k rows i and 4 + i (528 x 4 = 2112 bytes apart,
// 16 banks) for 16 consecutive m, so the 32 lanes meet 32 banks; 132 is a multiple of 4, so every
// chunk of 4 m stays 16-byte aligned.
__host__ __device__ int as_offset(int k, int m) {
  return k * (kBlockM + 4) + m;
}

// Thread t = 16 ty + tx owns rows 4 ty .. 4 ty + 3 and 64 + 4 ty .. 64 + 4 ty + 3, columns
// 4 tx .. 4 tx + 3 and 64 + 4 tx .. 64 + 4 tx + 3. A warp (ty = 2w, 2w + 1; tx = 0..15) then
// reads 16 consecutive chunks of a Bs row per request (each group of 8 lanes: 128 contiguous
// bytes) and 2 chunks of an As row (lane pairs merge: two groups, one chunk each).
__host__ __device__ int thread_row(int thread, int half) {
  return 4 * (thread / 16) + 64 * half;
}
__host__ __device__ int thread_col(int thread, int half) {
  return 4 * (thread % 16) + 64 * half;
}

__global__ void __launch_bounds__(kThreads)
    sgemm_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kAsFloats];
  __shared__ __align__(16) float Bs[2][kBlockK][kBlockN];
  const int t = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * kBlockM;
  const int n0 = static_cast<int>(blockIdx.x) * kBlockN;
  (void)M;
  const float* a_src = A + static_cast<long long>(m0 + t / 2) * K + 4 * (t % 2);
  const float* b_src = B + static_cast<long long>(t / 32) * N + n0 + 4 * (t % 32);
  float4 a_next = *reinterpret_cast<const float4*>(a_src);
  float4 b_next = *reinterpret_cast<const float4*>(b_src);
  const auto store = [&](int buffer) {
    const int k = 4 * (t % 2), m = t / 2;
    As[buffer][as_offset(k + 0, m)] = a_next.x;
    As[buffer][as_offset(k + 1, m)] = a_next.y;
    As[buffer][as_offset(k + 2, m)] = a_next.z;
    As[buffer][as_offset(k + 3, m)] = a_next.w;
    *reinterpret_cast<float4*>(&Bs[buffer][t / 32][4 * (t % 32)]) = b_next;
  };
  store(0);
  __syncthreads();

  const int row[2] = {thread_row(t, 0), thread_row(t, 1)};
  const int col[2] = {thread_col(t, 0), thread_col(t, 1)};
  float acc[8][8] = {};
  const int steps = K / kBlockK;
  for (int s = 0; s < steps; ++s) {
    const int current = s % 2;
    if (s + 1 < steps) {  // the next K-step's tiles, into registers while this one computes
      a_next = *reinterpret_cast<const float4*>(a_src + kBlockK * (s + 1));
      b_next =
          *reinterpret_cast<const float4*>(b_src + static_cast<long long>(kBlockK) * (s + 1) * N);
    }
#pragma unroll
    for (int k = 0; k < kBlockK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[current][as_offset(k, row[0])]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[current][as_offset(k, row[1])]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[current][k][col[0]]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[current][k][col[1]]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    if (s + 1 < steps) store(1 - current);
    __syncthreads();  // the next K-step's tiles are in place, and nobody reads these any more
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long r = m0 + row[i / 4] + i % 4;
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      *reinterpret_cast<float4*>(C + r * N + n0 + col[g]) =
          make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
    }
  }
}

}  // namespace ch09
