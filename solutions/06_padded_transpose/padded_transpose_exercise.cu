// Chapter 06 exercises: padding. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in padded_transpose.cuh (do not modify
// it). Grade your work with
//     meson test -C build --suite ch06
#include "chapters/06_padded_transpose/padded_transpose.cuh"

namespace ch06 {

// Exercise 1: the padded layout. As shipped it is unpadded: row-major with 32 words per row, so
// a column load is 32-way.
// ---- your code: exercise 1 ----
// Rows of 33 words: a column is read at stride 33, odd, so the 32 rows land in 32 banks.
__host__ __device__ int padded_tile_index(int row, int col) {
  return row * (kTile + 1) + col;
}
// ---- end of your code ----

// Exercise 2: the transpose through tile[kTileWords], addressed with padded_tile_index().
// ---- your code: exercise 2 ----
__global__ void padded_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileWords];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;
#pragma unroll  // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_row + j, c = tile_col + x;
    if (r < rows && c < cols)
      tile[padded_tile_index(j, x)] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();
#pragma unroll  // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_col + j, c = tile_row + x;
    if (r < cols && c < rows)
      out[static_cast<long long>(r) * rows + c] = tile[padded_tile_index(x, j)];
  }
}
// ---- end of your code ----

}  // namespace ch06
