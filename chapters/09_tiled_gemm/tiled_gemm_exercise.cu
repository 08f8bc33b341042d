// Chapter 09 exercises: shared tiles in matrix multiply. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in tiled_gemm.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch09
#include "chapters/09_tiled_gemm/tiled_gemm.cuh"

namespace ch09 {

// Exercise 1: wavefronts of warp 0's request, classic kernel, any TILE from 4 to 32 (the
// grader's report says which two tiles your variant asks).
// ---- your code: exercise 1 ----
int predicted_wavefronts(Access access, int tile) {
  (void)tile;
  switch (access) {
    case Access::kStoreAs: return kNotImplemented;           // TODO
    case Access::kStoreBs: return kNotImplemented;           // TODO
    case Access::kReadAsRow: return kNotImplemented;         // TODO
    case Access::kReadBsRow: return kNotImplemented;         // TODO
    case Access::kReadAsColumn: return kNotImplemented;      // TODO
    case Access::kReadAsTransposed: return kNotImplemented;  // TODO
    case Access::kReadBsColumn: return kNotImplemented;      // TODO
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 2a: the transposed A tile. As shipped: plain rows of 128 floats.
// ---- your code: exercise 2a ----
__host__ __device__ int as_offset(int k, int m) {
  return k * kBlockM + m;  // TODO: conflict-free for the transposed store
}
// ---- end of your code ----

// Exercise 2b: which outputs a thread owns. As shipped: a contiguous 8 x 8 block per thread.
// ---- your code: exercise 2b ----
__host__ __device__ int thread_row(int thread, int half) {
  return 8 * (thread / 16) + 4 * half;  // TODO
}
__host__ __device__ int thread_col(int thread, int half) {
  return 8 * (thread % 16) + 4 * half;  // TODO
}
// ---- end of your code ----

// ---- your code: exercise 2c ----
// Exercise 2c: the register-blocked SGEMM. See the contract in tiled_gemm.cuh and the lesson's
// section 2 (the tiling figure, the register budget, double buffering). The outline below names
// the steps; each FILL ME IN says roughly how many lines the reference needs there.
__global__ void sgemm_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // Two buffers of each tile: the K-step being computed reads one, the next K-step is written
  // into the other (double buffering). One buffer each is enough for a first, slower version.
  __shared__ __align__(16) float As[2][kAsFloats];
  __shared__ __align__(16) float Bs[2][kBlockK][kBlockN];
  (void)&As;  // silences "declared but never used" until you use them
  (void)&Bs;
  (void)A;
  (void)B;
  (void)C;
  (void)M;
  (void)N;
  (void)K;

  // Step 0, set-up. FILL ME IN (roughly 8 lines): the thread's number t, the block's first row
  // m0 = 128 * blockIdx.y and first column n0 = 128 * blockIdx.x; the addresses of the float4s
  // this thread copies each K-step (the contract: A[m0 + t / 2][k0 + 4 (t % 2) ...] and
  // B[k0 + t / 32][n0 + 4 (t % 32) ...]); its rows thread_row(t, h) and columns thread_col(t, g);
  // and 64 accumulators, float acc[8][8], all zero.

  // Step 1, global to registers. FILL ME IN (roughly 2 lines): load this thread's float4 of A and
  // of B for K-step 0 into registers (A's row pitch is K, B's is N; use 64-bit offsets).

  // Step 2, registers to the tiles. FILL ME IN (roughly 5 lines): write the A float4 transposed,
  // element i at As[buffer][as_offset(4 (t % 2) + i, t / 2)] for i = 0..3, and the B float4 whole
  // at Bs[buffer][t / 32][4 (t % 32)]. (A lambda or a small function, used again in step 5.)

  // Step 3, barrier. FILL ME IN (1 line): no warp may read a tile before every warp has written it.

  // For each K-step s = 0 .. K / 8 - 1, computing buffer s % 2: FILL ME IN (roughly 25 lines)
  //   Step 4, next stage in flight: if there is a next K-step, load its two float4s from global
  //     memory into registers now, so their latency hides behind this step's arithmetic.
  //   Step 5, inner product from registers: for k = 0..7 (#pragma unroll), read the float4s at
  //     As[cur][as_offset(k, thread_row(t, h))] and Bs[cur][k][thread_col(t, g)], h, g = 0, 1:
  //     8 values of A, 8 of B; then the 64 multiply-adds acc[i][j] = fmaf(a[i], b[j], acc[i][j]).
  //     Use fmaf on floats only: no TF32, no half types.
  //   Step 6, next stage into the other buffer: if there is a next K-step, store the registers of
  //     step 4 into buffer 1 - cur (step 2's code), then a barrier: it both publishes the next
  //     tiles and tells every warp that nobody reads buffer cur any more.

  // Step 7, write C. FILL ME IN (roughly 8 lines): output (thread_row(t, h) + i, thread_col(t, g)
  // + j) is acc[4 h + i][4 g + j]; write each row of 4 as one float4 at C + (m0 + row) * N + n0 +
  // column (N is C's row pitch, whether or not M == N).
}
// ---- end of your code ----

}  // namespace ch09
