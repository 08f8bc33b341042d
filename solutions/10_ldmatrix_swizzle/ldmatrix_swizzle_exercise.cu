// Chapter 10, reference solution (work in progress: exercises 1 and 2; the tensor-core tile of
// exercise 3 is not written yet). The contracts are in ldmatrix_swizzle.cuh.
#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"

namespace ch10 {

__host__ __device__ int swizzle(int b, int m, int s, int offset) {
  // The B bits at M + S .. M + S + B - 1, moved down by S onto bits M .. M + B - 1.
  const int mask = ((1 << b) - 1) << (m + s);
  return offset ^ ((offset & mask) >> s);
}

SwizzleParams chosen_swizzle(int row_bytes) {
  // Keep the 16 bytes of a chunk (M = 4); XOR the chunk index within a 128-byte line (3 bits
  // for 128-byte rows, the 2 bits of a 64-byte row's 4 chunks) with the line index (S = 3:
  // bits 7 and up, the row for 128-byte rows, the row pair for 64-byte rows).
  if (row_bytes == 128) return {3, 4, 3};
  if (row_bytes == 64) return {2, 4, 3};
  return {};
}

int predicted_ldmatrix_wavefronts(int row_bytes, Layout layout) {
  switch (layout) {
    case Layout::kPlain: return row_bytes == 128 ? 32 : 16;  // 8 rows in 4 banks; in 8
    case Layout::kPadded16:                                  // rows 144 or 80 bytes apart
    case Layout::kSwizzled: return 4;                        // one wavefront per matrix
  }
  return kNotImplemented;
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800  // cp.async, mma: 8.0 and newer
namespace {

// The stage's byte offset of (row, chunk) of a 128 x 64-half tile: 128-byte rows, swizzled.
__device__ __forceinline__ int tile_offset(int row, int chunk) {
  const SwizzleParams p = {3, 4, 3};  // chosen_swizzle(128), inlined for the device
  return swizzle(p.b, p.m, p.s, row * 128 + 16 * chunk);
}

__device__ __forceinline__ void cp_async_16(unsigned shared, const void* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared), "l"(global) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void ldmatrix_x4(unsigned shared, unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared));
}
__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                          unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

constexpr int kTileBytes = kTcBlock * kTcKStep * 2;  // one operand's tile in one stage: 16 KiB

}  // namespace
#endif

__global__ void __launch_bounds__(kTcThreads)
    tc_gemm_kernel(const __half* A, const __half* B, float* C, int M, int N, int K) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  // cp.async and mma.sync.m16n8k16 need compute capability 8.0; the GPU checks skip below it.
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
  __trap();
#else
  extern __shared__ __align__(128) unsigned char smem[];
  (void)M;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kTcBlock,
            n0 = static_cast<int>(blockIdx.x) * kTcBlock;
  const int wm = 64 * (warp / 2), wn = 64 * (warp % 2);  // this warp's 64 x 64 piece of C
  const int steps = K / kTcKStep;

  // Stage s holds A's tile at s * 2 * kTileBytes and B's right after it. Each thread copies 8
  // chunks of each: chunk id = 128 i + t, row id / 8, chunk id % 8 (consecutive threads,
  // consecutive 16-byte chunks of a row: coalesced, and conflict-free through the swizzle).
  const auto load_stage = [&](int stage, int step) {
    const unsigned a_tile = base + static_cast<unsigned>(stage * 2 * kTileBytes);
    const unsigned b_tile = a_tile + kTileBytes;
    const int k0 = step * kTcKStep;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int id = 128 * i + t, row = id / 8, chunk = id % 8;
      cp_async_16(a_tile + tile_offset(row, chunk),
                  A + static_cast<long long>(m0 + row) * K + k0 + 8 * chunk);
      cp_async_16(b_tile + tile_offset(row, chunk),
                  B + static_cast<long long>(n0 + row) * K + k0 + 8 * chunk);
    }
  };

  float acc[4][8][4] = {};  // [m16 tile][n8 tile][fragment]
#pragma unroll
  for (int s = 0; s < kTcStages - 1; ++s) {
    if (s < steps) load_stage(s, s);
    cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kTcStages - 2>();  // this step's stage has landed (for this thread)
    __syncthreads();                 // ... and for every thread; the oldest stage is free
    const int next = step + kTcStages - 1;
    if (next < steps) load_stage(next % kTcStages, next);
    cp_async_commit();  // an empty group when there is nothing left, to keep the count

    const int stage = step % kTcStages;
    const unsigned a_tile = base + static_cast<unsigned>(stage * 2 * kTileBytes);
    const unsigned b_tile = a_tile + kTileBytes;
#pragma unroll
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      // ldmatrix.x4: lane l gives row l % 16, chunk 2 kk + l / 16 of a 16 x 16 piece.
      unsigned a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        ldmatrix_x4(a_tile + tile_offset(wm + 16 * i + lane % 16, 2 * kk + lane / 16), a[i]);
        ldmatrix_x4(b_tile + tile_offset(wn + 16 * i + lane % 16, 2 * kk + lane / 16), b[i]);
      }
      // b[i]: rows n 0-7 and 8-15 of the 16 at wn + 16 i, k 0-7 and 8-15: r0, r2 are n-tile
      // 2 i's fragment, r1, r3 n-tile 2 i + 1's.
#pragma unroll
      for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          mma_16816(acc[i][2 * j], a[i], b[j][0], b[j][2]);
          mma_16816(acc[i][2 * j + 1], a[i], b[j][1], b[j][3]);
        }
      }
    }
  }
  cp_async_wait<0>();

  // The m16n8 accumulator: c0, c1 at row lane / 4, columns 2 (lane % 4) + 0, 1; c2, c3 eight
  // rows further down.
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int row = m0 + wm + 16 * i + lane / 4, col = n0 + wn + 8 * j + 2 * (lane % 4);
      *reinterpret_cast<float2*>(C + static_cast<long long>(row) * N + col) =
          make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(C + static_cast<long long>(row + 8) * N + col) =
          make_float2(acc[i][j][2], acc[i][j][3]);
    }
  }
#endif
}

}  // namespace ch10
