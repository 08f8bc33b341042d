/// @file swizzled_transpose.cuh
/// @brief Chapter 07 interface: the transpose with an XOR-swizzled tile.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// swizzled_transpose_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 07: XOR swizzle.
namespace ch07 {

constexpr int kTile = 32;                  ///< Tiles are kTile x kTile floats.
constexpr int kBlockRows = 8;              ///< Blocks are dim3(kTile, kBlockRows).
constexpr int kTileWords = kTile * kTile;  ///< Words of the tile: no padding.

/// Exercise 1a. The swizzle for any width: the word (0 .. 32 width - 1) of an unpadded tile of
/// 32 rows of `width` floats (a power of two, 2 .. 256) that holds element (row, col),
/// 0 <= row < 32, 0 <= col < width: a bijection, with every warp request below conflict-free:
///  - a warp storing whole rows: 32 / width consecutive rows at once (the first a multiple of
///    32 / width) where rows are narrower than 32 floats, else 32 consecutive columns of one row
///    (the first a multiple of 32);
///  - a warp loading one column of the 32 rows (lane r reads row r).
/// The local checks ask widths up to 32 (not the lesson's 16); official grading asks wider.
__host__ __device__ int swizzled_word(int row, int col, int width);

/// Exercise 1b. The word of the transpose's unpadded 32 x 32 tile (0 .. 1023) that holds element
/// (row, col): a bijection, with both a warp storing one row and a warp loading one column
/// conflict-free.
__host__ __device__ int swizzled_tile_index(int row, int col);

/// Exercise 2. Chapter 05's tiled transpose (same contract) with the tile
/// `__shared__ float tile[kTileWords]` (exactly 4096 bytes of shared memory) addressed through
/// swizzled_tile_index().
__global__ void swizzled_transpose_kernel(const float* in, float* out, int rows, int cols);

}  // namespace ch07
