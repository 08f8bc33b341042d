// Chapter 05 exercises: the tiled transpose. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in tiled_transpose.cuh (do not modify
// it). Grade your work with
//     meson test -C build --suite ch05
#include "chapters/05_tiled_transpose/tiled_transpose.cuh"

namespace ch05 {

// Exercise 1: stage a 32 x 32 tile (coalesced reads), barrier, write it transposed (coalesced
// writes). Guard the edges of matrices that are not multiples of 32.
// ---- your code: exercise 1 ----
__global__ void tiled_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile];
  (void)&tile;  // silences "declared but never used" until you use it
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // TODO
}
// ---- end of your code ----

// Exercise 2: wavefronts per warp request of the row store and the column load, for any tile
// `c` (README section 4).
// ---- your code: exercise 2 ----
int predicted_tile_store_wavefronts(TileCase c) {
  (void)c;
  return kNotImplemented;
}  // TODO
int predicted_tile_load_wavefronts(TileCase c) {
  (void)c;
  return kNotImplemented;
}  // TODO
// ---- end of your code ----

}  // namespace ch05
