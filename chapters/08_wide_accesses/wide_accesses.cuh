/// @file wide_accesses.cuh
/// @brief Chapter 08 interface: a transpose that moves 16 bytes per access, global and shared.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// wide_accesses_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 08: wide (8- and 16-byte) accesses.
namespace ch08 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

constexpr int kTile = 64;                         ///< Tiles are kTile x kTile floats.
constexpr int kChunks = kTile / 4;                ///< 16-byte chunks (float4) per tile row: 16.
constexpr int kBlockSide = 16;                    ///< Blocks are dim3(kBlockSide, kBlockSide).
constexpr int kTileFloats = kTile * (kTile + 4);  ///< The tile's floats: room for 16 B per row.

/// Exercise 1a. The swizzle for any width: where chunk `chunk` (0 .. row_chunks - 1) of row
/// `row` (0..63) starts, in floats, in an unpadded tile of 64 rows of `row_chunks` float4 chunks
/// (a power of two, 8 .. 64): a multiple of 4, every chunk its own four floats of the tile's
/// 256 x row_chunks floats, and every warp request below conflict-free:
///  - a warp storing 32 consecutive chunks of the tile in row-major order (the first chunk of
///    the 32 a multiple of 32): whole rows where they are narrower than 32 chunks;
///  - a warp loading as the kernel's step 2 does: lane l (0..15) chunk c (even) of row 4 l + k,
///    lane 16 + l chunk c + 1 of the same row (k = 0..3).
/// The local checks ask 16 chunks a row (the kernel's) and 8; official grading asks wider.
__host__ __device__ int swizzled_chunk(int row, int chunk, int row_chunks);

/// Exercise 1b. Where chunk `chunk` (0..15, floats 4 chunk .. 4 chunk + 3) of tile row `row`
/// (0..63) starts, in floats from the start of the tile. Every offset is a multiple of 4 (so a
/// float4 there is 16-byte aligned), every (row, chunk) has its own four floats inside
/// kTileFloats, and both tile accesses of wide_transpose_kernel are conflict-free: no warp
/// request takes more wavefronts than its ideal.
__host__ __device__ int tile_chunk_offset(int row, int chunk);

/// Exercise 2. `out` (cols x rows) = the transpose of `in` (rows x cols), both row-major;
/// `rows` and `cols` are multiples of 4 (so every float4 of a row is 16-byte aligned). Launched
/// with blocks of dim3(16, 16) and a grid of dim3(ceil(rows / 64), ceil(cols / 64)); block
/// (bx, by) moves the tile of rows 64 bx .. 64 bx + 63 and columns 64 by .. 64 by + 63 (as in
/// chapter 05) through `__shared__ __align__(16) float tile[kTileFloats]`, every access a float4:
///  - thread (x, y) loads the float4 `in[64 bx + y + 16 i][64 by + 4 x ...]` for i = 0..3 and
///    stores it at tile_chunk_offset(y + 16 i, x);
///  - after a barrier, it loads the 4 x 4 block of tile rows 4 x .. 4 x + 3, chunk y (four
///    float4 loads at tile_chunk_offset(4 x + k, y)), transposes it in registers, and stores
///    row k of the transposed block as the float4 `out[64 by + 4 y + k][64 bx + 4 x ...]`.
/// Chunks outside the matrix are neither read nor written.
__global__ void wide_transpose_kernel(const float* in, float* out, int rows, int cols);

/// Exercise 3. Your predictions, in wavefronts per warp request, for your variant's cases: the
/// grader's report lists them (variant 0, self-study, asks about the cases in brackets). The
/// warp of threads y = 2w and 2w + 1 (lanes 0-15 and 16-31, lane = x + 16 (y % 2)) ...
/// ... storing its float4 chunks in wide_transpose_kernel, with your layout (your variant's warp
/// and store; [warp 0, store 0]);
int predicted_tile_store_wavefronts();
/// ... loading the float4 chunks of its 4 x 4 blocks in wide_transpose_kernel, with your layout
/// (your variant's warp and load; [warp 0, load 0]);
int predicted_tile_load_wavefronts();
/// ... and two rules. That same load from a tile padded by whole chunks, `float tile[64][P]`
/// (offset P row + 4 chunk), each lane reading the first B bytes of its chunk (a float, float2
/// or float4), for any P = `pitch_floats` = 64 + 4 p (p = 1 .. 31) and B = `load_bytes` of 4, 8
/// or 16 [P = 68, B = 16: float tile[64][68], the whole float4];
int predicted_padded_load_wavefronts(int pitch_floats, int load_bytes);
/// and, about 8-byte accesses, a warp in which lane t stores the float2 `pairs[S * (t / 2)]` of
/// `__shared__ float2 pairs[16 S]` (lanes t and t ^ 1 store the same 8 bytes), for any S =
/// `stride` of 1 .. 64 [S = 1: pairs[t / 2]]. The grader asks both rules about your variant's
/// case and about fresh ones each run draws.
int predicted_float2_pairs_store_wavefronts(int stride);

}  // namespace ch08
