// Chapter 10 exercises: ldmatrix and the general swizzle. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in ldmatrix_swizzle.cuh (do not modify
// it). Grade your work with
//     meson test -C build --suite ch10
#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"

namespace ch10 {

// Exercise 1: CuTe's Swizzle<B, M, S> on an offset.
// ---- your code: exercise 1 ----
__host__ __device__ int swizzle(int b, int m, int s, int offset) {
  (void)b;
  (void)m;
  (void)s;
  return offset;  // TODO: as shipped, the identity
}
// ---- end of your code ----

// Exercise 2a: your swizzle for each row width (a power of two, 32 to 1024 bytes: a rule).
// ---- your code: exercise 2a ----
__host__ __device__ SwizzleParams chosen_swizzle(int row_bytes) {
  (void)row_bytes;
  return {};  // TODO
}
// ---- end of your code ----

// Exercise 2b: wavefronts of one ldmatrix.x4 (chunks 0 and 1) on each tile.
// ---- your code: exercise 2b ----
int predicted_ldmatrix_wavefronts(int row_bytes, Layout layout) {
  // TODO: one rule for every row width and layout of the contract: where do the 8 rows of each
  // of the four matrices fall among the bank quads? The grader asks fresh widths each run, so a
  // table of the widths you see fails.
  (void)row_bytes;
  (void)layout;
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 3a: which chunk of a stage's tile thread t copies in its copy i, and where it lands
// (contract in ldmatrix_swizzle.cuh; section 3 of the lesson works the 64-byte-row case).
// ---- your code: exercise 3a ----
__host__ __device__ ChunkCopy fill_copy(int t, int i) {
  // FILL ME IN (roughly 4 lines). The goal is fill_copy's contract in ldmatrix_swizzle.cuh:
  // the copies take every chunk of the tile once, each group of 8 lanes reads one 128-byte line
  // of A or B, and each chunk lands in the layout your exercise 2a chose for these rows, so that
  // the copies and the ldmatrix reads of 3b both take their ideal wavefronts. Section 3 of the
  // lesson answers the same questions for 64-byte rows; answer them for rows of kTcRowBytes.
  // The grader tries every (t, i) against the contract and draws the first warp that conflicts.
  (void)t;
  (void)i;
  return {};  // TODO: as shipped, kNotImplemented
}
// ---- end of your code ----

// Exercise 3b: the row address lane `lane` gives to the ldmatrix.x4 of a 16 x 16 piece.
// ---- your code: exercise 3b ----
__host__ __device__ int fragment_offset(int lane, int row0, int kk) {
  // FILL ME IN (roughly 3 lines). Which row of the piece and which 8 halves of K a lane gives
  // is fixed by the order mma_m16n8k16 takes the four matrices (the contract in
  // ldmatrix_swizzle.cuh, and figure ch10-ldmatrix-fragments.svg); where those 16 bytes sit is
  // what your fill_copy decided. The grader checks every lane of every piece and kk against
  // fill_copy's placement, and counts each ldmatrix.x4's wavefronts.
  (void)lane;
  (void)row0;
  (void)kk;
  return kNotImplemented;  // TODO
}
// ---- end of your code ----

// Exercise 3c: the tensor-core GEMM tile (contract in ldmatrix_swizzle.cuh). Yours: the stage
// fill and the pipeline's commit and wait (steps 1-3). The fragments' use, the mma and the
// epilogue are given: the grader counts this kernel's shared accesses against the contract.
// The 2 below says that two blocks share an SM (108 KiB of shared memory each); at 128 threads
// per block, that still leaves ptxas all 255 registers a thread can have.
__global__ void __launch_bounds__(kTcThreads, 2)
    tc_gemm_kernel(const __half* A, const __half* B, float* C, int M, int N, int K) {
  extern __shared__ __align__(1024) unsigned char smem[];  // [stage][A, B][slot]
  (void)M;                                                 // the grid covers M
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock;
  const int n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);  // this warp's 64 x 64 piece of C
  const int steps = K / kTcKStep;

  // ---- given: do not modify ----
  // Where this lane's ldmatrix rows are (exercise 3b: your fragment_offset), worked out once.
  // Piece i of a warp is 16 i rows below its first, so the contract's 16-row repeat puts it i
  // piece_step bytes further; the loop below then reads piece i of K-step kk at
  //   slot + fragment_offset(lane, wm + 16 * i, kk)  ==  slot + a_rows[kk] + i * piece_step.
  unsigned a_rows[kTcKStep / 16], b_rows[kTcKStep / 16];
#pragma unroll
  for (int kk = 0; kk < kTcKStep / 16; ++kk) {
    a_rows[kk] = static_cast<unsigned>(fragment_offset(lane, wm, kk));
    b_rows[kk] = static_cast<unsigned>(kTcSlotBytes + fragment_offset(lane, wn, kk));
  }
  const unsigned piece_step =
      static_cast<unsigned>(fragment_offset(lane, 16, 0) - fragment_offset(lane, 0, 0));
  // ---- end of the given part ----

  // Step 1. Filling a stage: this thread's 8 copies of A's tile and 8 of B's for K-step `step`
  // into stage `stage`, whose A slot starts at byte 2 stage kTcSlotBytes (B's right after).
  // ---- your code: exercise 3c, step 1 ----
  const auto load_stage = [&](int stage, int step) {
    // FILL ME IN (roughly 8 lines): this thread's share of the stage, as your exercise 3a
    // assigns it, for A's tile and for B's: each tile is this block's rows of its operand and
    // the K-step's halves of them. The grader counts each warp's cp.async per K-step (the
    // contract's 16) and their wavefronts, and checks C exactly.
    // Calling fill_copy in here is right; faster is to call it once, above this lambda (only
    // the stage and the K-step change from call to call), as the given part does for
    // fragment_offset.
    (void)stage;
    (void)step;
  };

  (void)load_stage;  // remove once steps 2 and 3 call it
  // ---- end of your code ----

  float acc[4][8][4] = {};  // [16 rows of m][8 columns of n][the m16n8 fragment]
  // ---- your code: exercise 3c, step 2 ----
  // Step 2 (FILL ME IN, roughly 4 lines). The pipeline's start: before step 0, fill as many
  // stages ahead as the ring can hold while a stage is being read. Each thread's wait in step
  // 3 counts its commit groups, so every thread must commit the same groups, whatever K is
  // (K may have fewer K-steps than the ring has stages). Section 3 of the lesson works a ring
  // of 4 stages; this one has kTcStages.
  // ---- end of your code ----

  for (int step = 0; step < steps; ++step) {
    // ---- your code: exercise 3c, step 3 ----
    // Step 3 (FILL ME IN, roughly 5 lines). Before this step reads its stage, three things
    // must hold: this thread's copies of the stage have landed, every thread's copies are
    // visible to every warp, and no warp still reads the stage that the next copies overwrite;
    // then keep the ring full. The grader fills shared memory with NaN before it runs your
    // kernel, so a stage read before its copies landed shows in C.
    // ---- end of your code ----

    // ---- given from here on: do not modify ----
    const unsigned slot = base + static_cast<unsigned>(step % kTcStages * 2 * kTcSlotBytes);
#pragma unroll
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      unsigned a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        ptx::ldmatrix_x4(slot + a_rows[kk] + i * piece_step, a[i]);
        ptx::ldmatrix_x4(slot + b_rows[kk] + i * piece_step, b[i]);
      }
      // b[j] holds n rows wn + 16 j .. + 15: matrices 0 and 2 (k 0-7, 8-15) of its first 8
      // rows, 1 and 3 of the next 8.
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
  ptx::cp_async_wait<0>();  // nothing left in flight when the block exits

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

}  // namespace ch10
