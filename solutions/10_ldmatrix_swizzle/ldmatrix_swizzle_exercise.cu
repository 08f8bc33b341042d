// Chapter 10, reference solution. The contracts are in ldmatrix_swizzle.cuh.
#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"

namespace ch10 {

__host__ __device__ int swizzle(int b, int m, int s, int offset) {
  // The B bits at M + S .. M + S + B - 1, moved down by S onto bits M .. M + B - 1.
  const int mask = ((1 << b) - 1) << (m + s);
  return offset ^ ((offset & mask) >> s);
}

__host__ __device__ SwizzleParams chosen_swizzle(int row_bytes) {
  // Keep the 16 bytes of a chunk (M = 4); XOR the chunk index within a 128-byte line (3 bits
  // for 128-byte rows, the 2 bits of a 64-byte row's 4 chunks, the 1 bit of a 32-byte row's 2)
  // with the line index (S = 3: bits 7 and up, the row for 128-byte rows, the row pair for
  // 64-byte rows, the row quad for 32-byte rows).
  if (row_bytes == 128) return {3, 4, 3};
  if (row_bytes == 64) return {2, 4, 3};
  if (row_bytes == 32) return {1, 4, 3};
  return {};
}

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

// Exercise 3: the tensor-core GEMM tile. See the contract in ldmatrix_swizzle.cuh.
// Two blocks share an SM (96 KiB of shared memory each); telling ptxas so (the 2 below) gave a
// leaner schedule, measured faster on the H200.
__global__ void __launch_bounds__(kTcThreads, 2)
    tc_gemm_kernel(const __half* A, const __half* B, float* C, int M, int N, int K) {
  extern __shared__ __align__(1024) unsigned char smem[];  // [stage][A, B][128 rows][128 bytes]
  (void)M;                                                 // the grid covers M
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const SwizzleParams p = chosen_swizzle(kTcRowBytes);
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock;
  const int n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);  // this warp's 64 x 64 piece of C
  const int steps = K / kTcKStep;

  // The swizzle repeats every 2^(B+M+S) bytes (1024: 8 rows), so a row 16 i further down is
  // placed exactly 16 i rows further down: each thread swizzles its first row once, below, and
  // steps by whole rows from there.
  //
  // Loads: thread t copies chunk t % 8 of rows t / 8 + 16 i, i = 0..7, of A's tile and of B's
  // (8 consecutive threads copy one 128-byte row: coalesced reads).
  const int load_row = t / 8, load_chunk = t % 8;
  const int store_at = swizzle(p.b, p.m, p.s, load_row * kTcRowBytes + 16 * load_chunk);
  const long long rows16 = 16LL * K;  // 16 rows of A or B in global memory
  const __half* a_src = A + static_cast<long long>(m0 + load_row) * K + 8 * load_chunk;
  const __half* b_src = B + static_cast<long long>(n0 + load_row) * K + 8 * load_chunk;
  const auto load_stage = [&](int stage, int step) {
    const unsigned a_tile = base + static_cast<unsigned>(stage * 2 * kTcTileBytes + store_at);
    const unsigned b_tile = a_tile + kTcTileBytes;
    const int k0 = step * kTcKStep;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const unsigned rows = static_cast<unsigned>(16 * i * kTcRowBytes);
      ptx::cp_async_16(a_tile + rows, a_src + i * rows16 + k0);
      ptx::cp_async_16(b_tile + rows, b_src + i * rows16 + k0);
    }
  };

  // Fragment reads: an ldmatrix.x4 reads a 16 x 16 piece, lane l giving row l % 16, chunk
  // 2 kk + l / 16. A warp's pieces start at whole multiples of 16 rows: one swizzle per kk.
  int read_at[kTcKStep / 16];
#pragma unroll
  for (int kk = 0; kk < kTcKStep / 16; ++kk) {
    read_at[kk] = swizzle(p.b, p.m, p.s, (lane % 16) * kTcRowBytes + 16 * (2 * kk + lane / 16));
  }

  float acc[4][8][4] = {};  // [16 rows of m][8 columns of n][the m16n8 fragment]
#pragma unroll
  for (int s = 0; s < kTcStages - 1; ++s) {  // the pipeline's first stages
    if (s < steps) load_stage(s, s);
    ptx::cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    ptx::cp_async_wait<kTcStages - 2>();  // this thread's copies of this step have landed
    __syncthreads();  // ... every thread's have, and every warp is done with the oldest stage
    const int next = step + kTcStages - 1;
    if (next < steps) load_stage(next % kTcStages, next);
    ptx::cp_async_commit();  // an empty group when nothing is left keeps the count

    const int stage = step % kTcStages;
    const unsigned a_tile = base + static_cast<unsigned>(stage * 2 * kTcTileBytes);
    const unsigned b_tile = a_tile + kTcTileBytes;
#pragma unroll
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      unsigned a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int a_piece = (wm + 16 * i) * kTcRowBytes, b_piece = (wn + 16 * i) * kTcRowBytes;
        ptx::ldmatrix_x4(a_tile + static_cast<unsigned>(a_piece + read_at[kk]), a[i]);
        ptx::ldmatrix_x4(b_tile + static_cast<unsigned>(b_piece + read_at[kk]), b[i]);
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
