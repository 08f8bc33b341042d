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
  // The B bits at M + S .. M + S + B - 1, moved down by S onto bits M .. M + B - 1.
  const int mask = ((1 << b) - 1) << (m + s);
  return offset ^ ((offset & mask) >> s);
}
// ---- end of your code ----

// Exercise 2a: your swizzle for each row width (a power of two, 32 to 1024 bytes: a rule).
// ---- your code: exercise 2a ----
__host__ __device__ SwizzleParams chosen_swizzle(int row_bytes) {
  if (row_bytes < 32 || row_bytes > 1024 || (row_bytes & (row_bytes - 1)) != 0) return {};
  // Keep the 16 bytes of a chunk (M = 4); XOR the chunk's index within its 128-byte line (B
  // bits: the 3 of a line's 8 chunks, or the 2 or 1 of a shorter row's 4 or 2 chunks) with the
  // bits from S up: the row's own low bits (S = log2(row_bytes / 16)) where a row fills a line
  // or more, the index of the line (S = 3, bit 7 up) where a line holds 2 or 4 rows.
  int b = 0, s = 3;
  while ((16 << b) < row_bytes && b < 3) ++b;
  while ((16 << s) < row_bytes) ++s;
  return {b, 4, s};
}
// ---- end of your code ----

// Exercise 2b: wavefronts of one ldmatrix.x4 (chunks 0 and 1) on each tile.
// ---- your code: exercise 2b ----
namespace {

// How many of 8 rows `chunks` 16-byte chunks apart share one bank quad: gcd(chunks, 8). Row r's
// chunk sits in quad (r * chunks) % 8, which meets 8 / gcd(chunks, 8) quads in turn.
int rows_per_quad(int chunks) {
  int g = 8;
  while (chunks % g != 0) g /= 2;
  return g;
}

}  // namespace

int predicted_ldmatrix_wavefronts(int row_bytes, Layout layout) {
  // Four matrices, each 8 rows of one chunk column, served one matrix at a time: a matrix takes
  // as many wavefronts as the most rows that share a bank quad. Where the ldmatrix starts does
  // not matter: every row moves by the same number of chunks.
  switch (layout) {
    case Layout::kPlain: return 4 * rows_per_quad(row_bytes / 16);         // 128: 8 rows in 4 banks
    case Layout::kPadded16: return 4 * rows_per_quad(row_bytes / 16 + 1);  // a chunk further
    case Layout::kSwizzled: return 4;  // one wavefront per matrix
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 3a: which chunk of a stage's tile thread t copies in its copy i, and where it lands
// (contract in ldmatrix_swizzle.cuh; section 3 of the lesson works the 64-byte-row case).
// ---- your code: exercise 3a ----
namespace {

// Where chunk `chunk` of tile row `row` lives in an operand's slot: its byte in the plain layout
// through chosen_swizzle(128). Swizzle<3, 4, 3> XORs the chunk with the row's low 3 bits: a
// permutation of each 128-byte line (one cp.async wavefront per line, 8 rows of a matrix in 8
// bank quads), repeating every 8 rows.
__host__ __device__ int tile_byte(int row, int chunk) {
  const SwizzleParams p = chosen_swizzle(kTcRowBytes);
  return swizzle(p.b, p.m, p.s, row * kTcRowBytes + 16 * chunk);
}

}  // namespace

// The stage fill: thread t copies chunk t % 8 of row t / 8 + 16 i, so 8 consecutive threads
// read one 128-byte row of A or B.
__host__ __device__ ChunkCopy fill_copy(int t, int i) {
  const int row = t / 8 + 16 * i, chunk = t % 8;
  return {row, chunk, tile_byte(row, chunk)};
}
// ---- end of your code ----

// Exercise 3b: the row address lane `lane` gives to the ldmatrix.x4 of a 16 x 16 piece.
// ---- your code: exercise 3b ----
// Lane l gives row l % 16 of the piece (matrices 0 and 2 rows 0-7, 1 and 3 rows 8-15) at chunk
// 2 kk + l / 16 (matrices 2 and 3 the second 8 halves), where fill_copy put it.
__host__ __device__ int fragment_offset(int lane, int row0, int kk) {
  return tile_byte(row0 + lane % 16, 2 * kk + lane / 16);
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
  // This fill_copy puts copy i 16 i rows below copy 0, and the layout repeats every 16 rows
  // (the contract), so copy i lands i times the slot bytes of 16 rows further: the addresses
  // are worked out once, here, and the loop only adds the stage and the K-step.
  const ChunkCopy first = fill_copy(t, 0), second = fill_copy(t, 1);
  const unsigned copy_to = base + static_cast<unsigned>(first.to);
  const unsigned copy_step = static_cast<unsigned>(second.to - first.to);
  const long long row_step = static_cast<long long>(second.row - first.row) * K;
  const __half* const a_from = A + static_cast<long long>(m0 + first.row) * K + 8 * first.chunk;
  const __half* const b_from = B + static_cast<long long>(n0 + first.row) * K + 8 * first.chunk;
  const auto load_stage = [&](int stage, int step) {
    const unsigned a_to = copy_to + static_cast<unsigned>(stage * 2 * kTcSlotBytes);
    const unsigned b_to = a_to + kTcSlotBytes;
    const long long k0 = static_cast<long long>(step) * kTcKStep;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      ptx::cp_async_16(a_to + i * copy_step, a_from + k0 + i * row_step);
      ptx::cp_async_16(b_to + i * copy_step, b_from + k0 + i * row_step);
    }
  };
  // ---- end of your code ----

  float acc[4][8][4] = {};  // [16 rows of m][8 columns of n][the m16n8 fragment]
  // ---- your code: exercise 3c, step 2 ----
  // The pipeline's first kTcStages - 1 stages, one commit group each (an empty group where K
  // is shorter keeps the count).
#pragma unroll
  for (int s = 0; s < kTcStages - 1; ++s) {
    if (s < steps) load_stage(s, s);
    ptx::cp_async_commit();
  }
  // ---- end of your code ----

  for (int step = 0; step < steps; ++step) {
    // ---- your code: exercise 3c, step 3 ----
    // Groups committed so far: step + kTcStages - 1. Waiting until at most kTcStages - 2 are
    // in flight leaves this step's landed; the barrier makes every thread's visible, and
    // tells every thread that all warps are done with the stage the next load overwrites.
    ptx::cp_async_wait<kTcStages - 2>();
    __syncthreads();
    const int next = step + kTcStages - 1;
    if (next < steps) load_stage(next % kTcStages, next);
    ptx::cp_async_commit();
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
