/// @file tiled_transpose.cuh
/// @brief Chapter 05 interface: a transpose through a shared tile.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// tiled_transpose_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 05: the tiled transpose.
namespace ch05 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

constexpr int kTile = 32;      ///< Tiles are kTile x kTile floats.
constexpr int kBlockRows = 8;  ///< Blocks are dim3(kTile, kBlockRows): each thread moves 4 rows.

/// Exercise 1. `out` (cols x rows) = the transpose of `in` (rows x cols), both row-major.
/// Launched with blocks of dim3(32, 8) threads and a grid of dim3(ceil(rows / 32),
/// ceil(cols / 32)); block (bx, by) moves the tile of rows 32 bx .. 32 bx + 31 and columns
/// 32 by .. 32 by + 31 (the grid's x walks down the tile rows, so blocks with neighbouring
/// bx write neighbouring segments of the same rows of `out`). Use `__shared__ float
/// tile[32][32]`: thread (x, y) reads `in[32 bx + y + 8 j][32 by + x]` into `tile[y + 8 j][x]`
/// for j = 0..3 (coalesced; a loop with a compile-time trip count lets all four loads be in
/// flight at once), and after a barrier writes `tile[x][y + 8 j]` to
/// `out[32 by + y + 8 j][32 bx + x]` (coalesced). Elements
/// outside the matrix are neither read nor written.
__global__ void tiled_transpose_kernel(const float* in, float* out, int rows, int cols);

/// A tile `T tile[32][P]` at byte 0 of shared memory: elements of E bytes (T a 2-byte type such
/// as `short` for E = 2, float for 4, float4 for 16) in rows of P elements, and the row and the
/// column that
/// exercise 2's two accesses touch.
struct TileCase {
  int element_bytes;  ///< E: 2, 4 or 16
  int pitch;          ///< P: elements per row of the tile, 32 to 80
  int row;            ///< R: the row a warp stores
  int column;         ///< C: the column a warp loads
};

/// Exercise 2. Your rules for the cost, in wavefronts per warp request, of two accesses of the
/// tile `c`: a warp storing row R (lane x writes `tile[R][x]`) ...
int predicted_tile_store_wavefronts(TileCase c);
/// ... and a warp loading column C (lane x reads `tile[x][C]`). The grader asks both about your
/// variant's tile (its report says which; variant 0: your kernel's float tile[32][32], row and
/// column 5) and about fresh tiles each run draws, official grading's from a seed no hand-out
/// shows: write the rule, not a number.
int predicted_tile_load_wavefronts(TileCase c);

}  // namespace ch05
