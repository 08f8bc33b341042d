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
// ---- end of your code ----

// Exercise 2: wavefronts per warp request of the row store and the column load, for any tile
// `c` (README section 4).
// ---- your code: exercise 2 ----
namespace {

// The wavefronts of a warp where lane t accesses `width` bytes at byte `address(t)`, every lane
// at its own address (no lane pairs to merge): 1- to 4-byte accesses are one group of 32 lanes,
// 8-byte ones two groups of 16, 16-byte ones four of 8, and a group costs the most distinct
// 4-byte words any bank holds (halfwords of one word are served together).
template <typename Address>
int wavefronts_of(int width, Address address) {
  const int group = width <= 4 ? 32 : 32 / (width / 4);
  const int words_per_lane = width < 4 ? 1 : width / 4;
  int total = 0;
  for (int first = 0; first < 32; first += group) {
    long long words[32 * 4];  // the distinct words this group touches
    int count = 0;
    for (int t = first; t < first + group; ++t) {
      for (int k = 0; k < words_per_lane; ++k) {
        const long long word = address(t) / 4 + k;
        bool seen = false;
        for (int i = 0; i < count && !seen; ++i) seen = words[i] == word;
        if (!seen) words[count++] = word;
      }
    }
    int in_bank[32] = {};
    for (int i = 0; i < count; ++i) ++in_bank[words[i] % 32];
    int busiest = 0;
    for (int n : in_bank) busiest = n > busiest ? n : busiest;
    total += busiest;
  }
  return total;
}

}  // namespace

// The tile T tile[32][P] of the case `c`. The store: 32 lanes write one row, 32
// consecutive elements, at most 128 bytes per group of lanes. The load: 32 lanes read one column,
// elements P * E bytes apart. (Variant 0's float tile[32][32]: the store 1, the load 32, all
// 32 words in one bank.)
int predicted_tile_store_wavefronts(TileCase c) {
  const int row_store = wavefronts_of(c.element_bytes, [&](int x) {
    return static_cast<long long>(c.element_bytes) * (c.row * c.pitch + x);
  });
  return row_store;
}
int predicted_tile_load_wavefronts(TileCase c) {
  const int column_load = wavefronts_of(c.element_bytes, [&](int x) {
    return static_cast<long long>(c.element_bytes) * (x * c.pitch + c.column);
  });
  return column_load;
}
// ---- end of your code ----

}  // namespace ch05
