// Chapter @NN@ exercises: @TITLE@. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in @SLUG@.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch@NN@
#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"

namespace ch@NN@ {

// Exercise 1: the tile layout. As shipped it is row-major with 32 words per row, so a column
// load is 32-way.
// ---- your code: exercise 1 ----
// Rows of 33 words: a column is read at stride 33, odd, so the 32 rows land in 32 banks.
__host__ __device__ int tile_index(int row, int col) {
  return row * (kTile + 1) + col;
}
// ---- end of your code ----

// Exercise 2: your prediction, worked out on paper first.
// ---- your code: exercise 2 ----
// Rows 128 bytes apart all start in bank 0: the column's 32 words share one bank.
int predicted_plain_column_wavefronts() {
  return 32;
}
// ---- end of your code ----

// Exercise 3: the transpose through tile[kTileWords], addressed with tile_index().
// ---- your code: exercise 3 ----
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileWords];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;
  for (int j = y; j < kTile; j += kBlockRows) {
    const int r = tile_row + j, c = tile_col + x;
    if (r < rows && c < cols) tile[tile_index(j, x)] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();  // every warp reads what other warps wrote
  for (int j = y; j < kTile; j += kBlockRows) {
    const int r = tile_col + j, c = tile_row + x;
    if (r < cols && c < rows) out[static_cast<long long>(r) * rows + c] = tile[tile_index(x, j)];
  }
}
// ---- end of your code ----

}  // namespace ch@NN@
