/// @file tile_columns.cuh
/// @brief Chapter 04 interface: reading columns of 2D tiles.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// tile_columns_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 04: columns of 2D tiles.
namespace ch04 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

/// Exercise 1. The row pitch, in elements, of a tile `T tile[rows][pitch]` whose rows hold
/// `width` elements of `element_bytes` bytes (1, 2, 4, 8 or 16), such that a warp reading one
/// column (lane t reads row t, for any column 0..width-1) takes no more wavefronts than its
/// bytes need (no bank conflict as Nsight Compute counts it), with the least padding: the
/// smallest such pitch >= width (and at most width + 64). Widths are 1 to 1024 (the grader tries your variant's, which
/// its report lists: 1 to 256 in a self-study workbook, 48 of each size up to 512 in a
/// class hand-out, fresh ones up to 512 at each run; official grading the
/// wider ones). Returns kNotImplemented until written.
__host__ __device__ int padded_pitch(int element_bytes, int width);

constexpr int kTile = 32;      ///< The kernel's tiles are kTile x kTile floats.
constexpr int kBlockRows = 8;  ///< Its blocks are dim3(kTile, kBlockRows) threads.

/// Exercise 2. Launched with blocks of dim3(32, 8) threads, a grid of
/// dim3(ceil(cols / 32), ceil(rows / 32)) blocks, and `32 * padded_pitch(4, 32) * 4` bytes of
/// dynamic shared memory. Block (bx, by) handles rows 32 by .. 32 by + 31 and columns
/// 32 bx .. 32 bx + 31 of the row-major `rows x cols` matrix `m`, and for each of its columns j
/// writes `out[by * cols + j]` = the sum of `m[i * cols + j]` over its rows i < rows.
/// Stage the tile in shared memory with coalesced loads (thread (x, y) loads column x of rows
/// y, y + 8, y + 16, y + 24), then let warp y sum columns y, y + 8, y + 16, y + 24: lane t reads
/// row t of the column from shared memory, and the warp adds its 32 values with
/// __shfl_down_sync. Rows and columns past the matrix count as zero.
__global__ void block_column_sums_kernel(const float* m, float* out, int rows, int cols);

}  // namespace ch04
