// Chapter 05, reference solution. The contracts are in tiled_transpose.cuh.
#include "chapters/05_tiled_transpose/tiled_transpose.cuh"

namespace ch05 {

__global__ void tiled_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;  // first row of `in` in this tile
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;  // first column of `in`
#pragma unroll  // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_row + j, c = tile_col + x;
    if (r < rows && c < cols) tile[j][x] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();  // every warp reads what other warps wrote
#pragma unroll      // four rows per thread, known at compile time: all four loads in flight at once
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_col + j, c = tile_row + x;  // row and column of `out`
    if (r < cols && c < rows) out[static_cast<long long>(r) * rows + c] = tile[x][j];
  }
}

// The store: 32 lanes write one row of the tile, 32 consecutive words. The load: 32 lanes read
// one column, 32 words 128 bytes apart, all in one bank.
int predicted_tile_store_wavefronts() {
  return 1;
}
int predicted_tile_load_wavefronts() {
  return 32;
}

}  // namespace ch05
