/// @file @SLUG@.cuh
/// @brief Chapter @NN@ interface: @TITLE@.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// @SLUG@_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter @NN@: @TITLE@.
namespace ch@NN@ {

constexpr int kTile = 32;                        ///< Tiles are kTile x kTile floats.
constexpr int kBlockRows = 8;                    ///< Blocks are dim3(kTile, kBlockRows).
constexpr int kTileWords = kTile * (kTile + 4);  ///< Words the tile may occupy: room to pad.
constexpr int kNotImplemented = -1;              ///< What a prediction returns until you fill it.

/// Exercise 1. The word of the tile (0 .. kTileWords-1) that holds element (row, col),
/// 0 <= row, col < 32: distinct elements in distinct words, and both a warp storing one row
/// (lanes over col) and a warp loading one column (lanes over row) conflict-free.
__host__ __device__ int tile_index(int row, int col);

/// Exercise 2. Your prediction: the wavefronts of one warp loading column 0 of a plain
/// `float tile[32][32]` (lane t reads `tile[t][0]`), worked out before you run anything.
int predicted_plain_column_wavefronts();

/// Exercise 3. `out` (cols x rows, row-major) = transpose of `in` (rows x cols), through
/// `__shared__ float tile[kTileWords]` addressed by tile_index(). Blocks of dim3(32, 8); grid
/// dim3(ceil(rows / 32), ceil(cols / 32)); block (bx, by) moves rows 32 bx.. and columns
/// 32 by..; elements outside the matrix are neither read nor written.
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols);

}  // namespace ch@NN@
