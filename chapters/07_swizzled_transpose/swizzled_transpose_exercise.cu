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
__host__ __device__ int swizzled_word(int row, int col, int width) {
  return row * width + col;
}

__host__ __device__ int swizzled_tile_index(int row, int col) {
  return row * kTile + col;
}
// ---- end of your code ----

// Exercise 2: the transpose through tile[kTileWords], addressed with swizzled_tile_index().
// ---- your code: exercise 2 ----
__global__ void swizzled_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileWords];
  (void)&tile;  // silences "declared but never used" until you use it
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // TODO: chapter 05's staged transpose, its tile reached only through swizzled_tile_index, on the
  // stores and the loads alike: the grader counts both against what your layout promises.
}
// ---- end of your code ----

}  // namespace ch07
