// Chapter 08 exercises: wide accesses. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in wide_accesses.cuh (do not modify
// it). Grade your work with
//     meson test -C build --suite ch08
#include "chapters/08_wide_accesses/wide_accesses.cuh"

namespace ch08 {

// Exercise 1: where the float4 chunk of a tile row lives, for any width, then for the kernel's
// tile. As shipped both are plain row-major: aligned, but the load of a 4 x 4 block conflicts.
// ---- your code: exercise 1 ----
__host__ __device__ int swizzled_chunk(int row, int chunk, int row_chunks) {
  return row * 4 * row_chunks + 4 * chunk;
}

__host__ __device__ int tile_chunk_offset(int row, int chunk) {
  return row * kTile + 4 * chunk;
}
// ---- end of your code ----

// Exercise 2: float4 in, float4 into the tile, barrier, four float4 out of the tile, a 4 x 4
// transpose in registers, float4 out. Guard whole chunks at the edges.
// ---- your code: exercise 2 ----
__global__ void wide_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ __align__(16) float tile[kTileFloats];
  (void)&tile;  // silences "declared but never used" until you use it
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // TODO
}
// ---- end of your code ----

// Exercise 3: wavefronts per warp request.
// ---- your code: exercise 3 ----
int predicted_tile_store_wavefronts() {
  return kNotImplemented;
}  // TODO
int predicted_tile_load_wavefronts() {
  return kNotImplemented;
}  // TODO
int predicted_padded_load_wavefronts(int pitch_floats, int load_bytes) {
  (void)pitch_floats;
  (void)load_bytes;
  return kNotImplemented;
}  // TODO
int predicted_float2_pairs_store_wavefronts(int stride) {
  (void)stride;
  return kNotImplemented;
}  // TODO
// ---- end of your code ----

}  // namespace ch08
