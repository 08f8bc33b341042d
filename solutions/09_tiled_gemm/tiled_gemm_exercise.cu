// Chapter 09 exercises: shared tiles in matrix multiply. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in tiled_gemm.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch09
#include "chapters/09_tiled_gemm/tiled_gemm.cuh"

namespace ch09 {

// Exercise 1: wavefronts of warp 0's request, classic kernel, any TILE from 4 to 32 (the
// grader's report says which tiles your variant asks).
// ---- your code: exercise 1 ----
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
// ---- end of your code ----

// Exercise 2a: the transposed A tile, its pitch for any block first. As shipped: plain rows of
// block_m floats.
// ---- your code: exercise 2a ----
// Lanes 2 j and 2 j + 1 store one m into k rows 4 apart, 4 P floats apart: the 16 lanes of each
// row cover 16 consecutive banks, so the two rows meet all 32 banks when 4 P is 16 banks round,
// 4 P = 16 (mod 32), that is P = 4 (mod 8). A multiple of 4 from block_m up is either that
// already (block_m = 4 mod 8: no padding at all) or 4 more.
__host__ __device__ int as_pitch(int block_m) {
  return block_m % 8 == 4 ? block_m : block_m + 4;
}

// Rows of 132 floats: the transposed store writes k rows i and 4 + i (528 x 4 = 2112 bytes apart,
// 16 banks) for 16 consecutive m, so the 32 lanes meet 32 banks; 132 is a multiple of 4, so every
// chunk of 4 m stays 16-byte aligned.
__host__ __device__ int as_offset(int k, int m) {
  return k * (kBlockM + 4) + m;
}
// ---- end of your code ----

// Exercise 2b: which outputs a thread owns. As shipped: a contiguous 8 x 8 block per thread.
// ---- your code: exercise 2b ----
// Warp w = t / 32 owns a 16 x 32 piece of each quarter of the tile (warp rows w / 2, warp
// columns w % 2), and its lane l = t % 32 one 4 x 4 piece of that: piece row (l & 1) + 2 (bit 4
// of l), piece column bits 1-3 of l. So lanes l and l ^ 2 read one As chunk, and lanes l and
// l ^ 1 one Bs chunk: each float4 read of the warp is served in two groups of 16 lanes (chapter
// 08's pair rule), each group 2 As chunks or 8 contiguous Bs chunks in distinct bank quads: 2
// wavefronts per read, where 8 distinct chunks per group of 8 lanes would take 4.
__host__ __device__ int thread_row(int thread, int half) {
  const int warp = thread / 32, lane = thread % 32;
  return 64 * half + 16 * (warp / 2) + 4 * ((lane & 1) + 2 * ((lane >> 4) & 1));
}
__host__ __device__ int thread_col(int thread, int half) {
  const int warp = thread / 32, lane = thread % 32;
  return 64 * half + 32 * (warp % 2) + 4 * ((lane >> 1) & 7);
}
// ---- end of your code ----

// ---- your code: exercise 2c ----
// Exercise 2c: the register-blocked SGEMM (the contract is in tiled_gemm.cuh).
// How the K loop feeds the tiles, the three designs of the lesson's section 2: one buffer of each
// tile and two barriers per K-step; two buffers indexed s % 2 and one barrier; two buffers with
// the loop unrolled by two steps (the reference). The reference checks time all three: each
// [ablation.NAME] of solutions/09_tiled_gemm/chapter.ini that changes the loop edits this line.
enum class Loop { kSingleBuffer, kModTwo, kUnrolled };
constexpr Loop kLoop = Loop::kUnrolled;

// Two buffers of each tile (double buffering): while the block computes K-step s from buffer
// s % 2, each thread holds K-step s + 1's two float4s in registers and stores them into the other
// buffer, so one barrier per K-step suffices. The K loop is unrolled by two steps so that each
// buffer is a constant address (the reference checks time it against the s % 2 loop with these
// reads: variants.unrolled_pairs and variants.s_mod_2_pairs in measurements/h200.tsv), and its
// last step is peeled: no branch inside.
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int kBuffers = kLoop == Loop::kSingleBuffer ? 1 : 2;
  __shared__ __align__(16) float As[kBuffers][kAsFloats];
  __shared__ __align__(16) float Bs[kBuffers][kBlockK][kBlockN];
  const int t = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * kBlockM;
  const int n0 = static_cast<int>(blockIdx.x) * kBlockN;
  (void)M;
  // Global to registers: the contract's float4 of A and of B, K-step by K-step.
  const float* a_src = A + static_cast<long long>(m0 + t / 2) * K + 4 * (t % 2);
  const float* b_src = B + static_cast<long long>(t / 32) * N + n0 + 4 * (t % 32);
  const long long b_step = static_cast<long long>(kBlockK) * N;
  float4 a_next = *reinterpret_cast<const float4*>(a_src);
  float4 b_next = *reinterpret_cast<const float4*>(b_src);
  const auto fetch = [&](int step) {
    a_next = *reinterpret_cast<const float4*>(a_src + kBlockK * step);
    b_next = *reinterpret_cast<const float4*>(b_src + b_step * step);
  };
  // Registers to the tiles: A transposed through as_offset, B as it is.
  const int a_k = 4 * (t % 2), a_m = t / 2;
  // Each access's request for warp 0 and buffer 0, for the grader's line-by-line view.
  const auto store = [&](int buffer) {
    // bank model: --store '(t%2)*2112 + t/2*4'
    As[buffer][as_offset(a_k + 0, a_m)] = a_next.x;
    // bank model: --store '(t%2)*2112 + t/2*4 + 528'
    As[buffer][as_offset(a_k + 1, a_m)] = a_next.y;
    // bank model: --store '(t%2)*2112 + t/2*4 + 1056'
    As[buffer][as_offset(a_k + 2, a_m)] = a_next.z;
    // bank model: --store '(t%2)*2112 + t/2*4 + 1584'
    As[buffer][as_offset(a_k + 3, a_m)] = a_next.w;
    // bank model: --store --width 16 't*16'
    *reinterpret_cast<float4*>(&Bs[buffer][t / 32][4 * (t % 32)]) = b_next;
  };
  // The inner product from registers: per k, 8 values of A and 8 of B, 64 multiply-adds.
  const int row[2] = {thread_row(t, 0), thread_row(t, 1)};
  const int col[2] = {thread_col(t, 0), thread_col(t, 1)};
  float acc[8][8] = {};
  const auto compute = [&](int buffer) {
#pragma unroll
    for (int k = 0; k < kBlockK; ++k) {
      // For k = 0 (each next k is 528 bytes on, 4 banks round: the same conflicts):
      // bank model: --width 16 '16*((t&1) + 2*((t>>4)&1))'
      const float4 a0 = *reinterpret_cast<const float4*>(&As[buffer][as_offset(k, row[0])]);
      // bank model: --width 16 '16*((t&1) + 2*((t>>4)&1)) + 256'
      const float4 a1 = *reinterpret_cast<const float4*>(&As[buffer][as_offset(k, row[1])]);
      // bank model: --width 16 '16*((t>>1)&7)'
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buffer][k][col[0]]);
      // bank model: --width 16 '16*((t>>1)&7) + 256'
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buffer][k][col[1]]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  };
  // One K-step s that has a successor: fetch s + 1, compute s, store s + 1 into the other
  // buffer, then the barrier: the next tiles are in place, and nobody reads these any more.
  const auto step = [&](int s, int buffer) {
    fetch(s + 1);
    compute(buffer);
    store(1 - buffer);
    __syncthreads();  // the next K-step's tiles are in place, and nobody reads these any more
  };
  if constexpr (kLoop != Loop::kSingleBuffer) {
    store(0);
    __syncthreads();
  }
  const int steps = K / kBlockK;
  if constexpr (kLoop == Loop::kSingleBuffer) {
    for (int s = 0; s < steps; ++s) {
      fetch(s);
      store(0);
      __syncthreads();  // the tiles are in place
      compute(0);
      __syncthreads();  // nobody reads them any more
    }
  } else if constexpr (kLoop == Loop::kModTwo) {
    for (int s = 0; s < steps; ++s) {
      if (s + 1 < steps) fetch(s + 1);
      compute(s % 2);
      if (s + 1 < steps) store((s + 1) % 2);
      __syncthreads();
    }
  } else {
    int s = 0;
    for (; s + 2 < steps; s += 2) {  // s is even here: K-step s is in buffer 0
      step(s, 0);
      step(s + 1, 1);
    }
    if (s + 1 < steps) {  // two K-steps left
      step(s, 0);
      compute(1);
    } else {  // one left
      compute(0);
    }
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
// ---- end of your code ----

}  // namespace ch09
