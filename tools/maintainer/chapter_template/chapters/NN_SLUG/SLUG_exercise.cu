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
__host__ __device__ int tile_index(int row, int col) {
  return row * kTile + col;
}
// ---- end of your code ----

// Exercise 2: your prediction, worked out on paper first.
// ---- your code: exercise 2 ----
int predicted_plain_column_wavefronts() {
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 3: the transpose through tile[kTileWords], addressed with tile_index().
// ---- your code: exercise 3 ----
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileWords];
  (void)&tile;  // silences "declared but never used" until you use it
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // TODO: stage the block's tile in shared memory, synchronise, write it out transposed.
}
// ---- end of your code ----

}  // namespace ch@NN@
