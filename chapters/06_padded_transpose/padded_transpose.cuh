/// @file padded_transpose.cuh
/// @brief Chapter 06 interface: the transpose with a padded tile.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// padded_transpose_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 06: padding.
namespace ch06 {

constexpr int kTile = 32;                        ///< Tiles are kTile x kTile floats.
constexpr int kBlockRows = 8;                    ///< Blocks are dim3(kTile, kBlockRows).
constexpr int kTileWords = kTile * (kTile + 4);  ///< Words of the tile: room to pad each row.

/// Exercise 1a. The smallest row pitch, in elements, of at least `columns` (1 .. 1024: the local
/// checks ask up to 128, official grading wider), at which a warp loading any one column of a
/// tile of 32 rows (lane r reads row r) of `element_bytes`-byte elements (2, 4, 8 or 16) takes
/// the fewest wavefronts a warp of such loads can: one per 128 bytes it reads, and at least one.
/// Its rows are then padded by `padded_pitch(element_bytes, columns) - columns` (the arguments
/// in chapter 04's order).
int padded_pitch(int element_bytes, int columns);

/// Exercise 1b. The word of the tile (0 .. kTileWords-1) that holds element (row, col),
/// 0 <= row, col < 32: distinct elements in distinct words, and both a warp storing one row
/// (lanes over col) and a warp loading one column (lanes over row) conflict-free. Rows may be
/// padded; kTileWords leaves room for up to four words of padding per row.
__host__ __device__ int padded_tile_index(int row, int col);

/// Exercise 2. Chapter 05's tiled transpose (same contract: `out` = transpose of `in`, blocks of
/// dim3(32, 8), grid dim3(ceil(rows / 32), ceil(cols / 32)), edges guarded) with the tile
/// `__shared__ float tile[kTileWords]` addressed through padded_tile_index().
__global__ void padded_transpose_kernel(const float* in, float* out, int rows, int cols);

}  // namespace ch06
