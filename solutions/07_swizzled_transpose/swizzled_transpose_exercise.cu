// Chapter 07 exercises: XOR swizzle. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in swizzled_transpose.cuh (do not
// modify it). Grade your work with
//     meson test -C build --suite ch07
#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"

namespace ch07 {

// Exercise 1: the swizzle, for any width, then for the kernel's tile. As shipped both are plain
// row-major: a column load is 32-way.
// ---- your code: exercise 1 ----
// Column col of row `row` is stored at column col ^ f(row). Within a row, x -> x ^ f(row) is a
// bijection of the row (XOR with a fixed value below the width is its own inverse), so the rows
// a warp stores keep their banks. Down a column, rows that start in the same bank (rows
// 32 / width apart, where a line of 32 banks holds several rows) need different values of f:
// f(row) = (row / rows per line) % (the columns that line gives each row, at most 32).
__host__ __device__ int swizzled_word(int row, int col, int width) {
  const int rows_per_line = width < 32 ? 32 / width : 1;
  const int columns_per_line = width < 32 ? width : 32;
  return row * width + (col ^ ((row / rows_per_line) % columns_per_line));
}

// 32 floats a row: one row per line, and f(row) = row % 32 = row, written so (the kernel's index
// needs no remainder).
__host__ __device__ int swizzled_tile_index(int row, int col) {
  return row * kTile + (col ^ row);
}
// ---- end of your code ----

// Exercise 2: the transpose through tile[kTileWords], addressed with swizzled_tile_index().
// ---- your code: exercise 2 ----
__global__ void swizzled_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileWords];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;
#pragma unroll  // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_row + j, c = tile_col + x;
    if (r < rows && c < cols)
      tile[swizzled_tile_index(j, x)] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();
#pragma unroll  // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_col + j, c = tile_row + x;
    if (r < cols && c < rows)
      out[static_cast<long long>(r) * rows + c] = tile[swizzled_tile_index(x, j)];
  }
}
// ---- end of your code ----

}  // namespace ch07
