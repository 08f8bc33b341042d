/// @file ldmatrix_swizzle.cuh
/// @brief Chapter 10 interface: ldmatrix and the general swizzle.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// ldmatrix_swizzle_exercise.cu.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

/// Chapter 10: ldmatrix and the general swizzle.
namespace ch10 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

// ---------------------------------------------------------------------------------------------
// Exercise 1: the general swizzle.
// ---------------------------------------------------------------------------------------------

/// Exercise 1. CuTe's Swizzle<B, M, S> applied to `offset` (any unit: bytes, halves, chunks):
/// keep the low M bits; XOR the B bits that start S positions above the B bits above the low M
/// (bits M + S .. M + S + B - 1) into those B bits (bits M .. M + B - 1); keep every other bit.
/// For B = 0 it is the identity. 0 <= B, M, S and B <= S; offset >= 0.
__host__ __device__ int swizzle(int b, int m, int s, int offset);

// ---------------------------------------------------------------------------------------------
// Exercise 2: ldmatrix on half-precision tiles.
// ---------------------------------------------------------------------------------------------

/// How a tile of `__half` rows is laid out in shared memory. Rows are `row_bytes` long (64 or
/// 128: 32 or 64 halves of K), one row per M (or N) index.
enum class Layout : int {
  kPlain,     ///< row r at byte r * row_bytes
  kPadded16,  ///< row r at byte r * (row_bytes + 16)
  kSwizzled,  ///< byte offset o = r * row_bytes + c of the plain layout stored at
              ///< swizzle(B, M, S, o), with B, M, S from chosen_swizzle(row_bytes)
};

/// The swizzle parameters you choose for a row width.
struct SwizzleParams {
  int b = kNotImplemented;  ///< Bits XORed.
  int m = kNotImplemented;  ///< Low bits kept.
  int s = kNotImplemented;  ///< Shift of the XORed bits.
};

/// Exercise 2a. The Swizzle<B, M, S> on byte offsets that makes a tile with rows of `row_bytes`
/// (64 or 128) conflict-free for both the 16-byte stores that fill it (a warp stores 32
/// consecutive 16-byte chunks of the plain layout) and the `ldmatrix.x4` reads that drain it
/// (lane l gives the address of row l % 16, chunk c + l / 16, for any even chunk c of the row).
/// It must be a bijection on the tile (every 16-byte chunk stays whole and aligned).
SwizzleParams chosen_swizzle(int row_bytes);

/// Exercise 2b. Your prediction: the wavefronts of one `ldmatrix.x4` (as in chosen_swizzle's
/// contract, chunk c = 0) on a tile with rows of `row_bytes` (64 or 128) in `layout`.
int predicted_ldmatrix_wavefronts(int row_bytes, Layout layout);

// ---------------------------------------------------------------------------------------------
// Exercise 3 (work in progress): a tensor-core GEMM tile.
// ---------------------------------------------------------------------------------------------

constexpr int kTcBlock = 128;    ///< Rows of A and of B (columns of C) per block.
constexpr int kTcKStep = 64;     ///< Halves of K per stage: rows of 128 bytes.
constexpr int kTcStages = 3;     ///< cp.async pipeline depth.
constexpr int kTcThreads = 128;  ///< 4 warps, each a 64 x 64 piece of C.
/// Bytes of dynamic shared memory the kernel takes: A's and B's tile for each stage.
constexpr int kTcSharedBytes = kTcStages * 2 * kTcBlock * kTcKStep * 2;

/// Exercise 3. C = A B^T: A (M x K) and B (N x K) row-major `__half` (both K-major, as ldmatrix
/// without .trans wants them), C (M x N) row-major fp32, accumulated in fp32; M, N multiples of
/// 128, K a multiple of 64. Blocks of kTcThreads threads, grid dim3(N / 128, M / 128), and
/// kTcSharedBytes of dynamic shared memory. Each stage holds A's and B's 128 x 64 tiles, filled
/// by 16-byte cp.async and drained by ldmatrix.x4, both through the tile's swizzle
/// (chosen_swizzle(128) on byte offsets row * 128 + 16 * chunk); mma.sync.m16n8k16 multiplies.
__global__ void tc_gemm_kernel(const __half* A, const __half* B, float* C, int M, int N, int K);

}  // namespace ch10
