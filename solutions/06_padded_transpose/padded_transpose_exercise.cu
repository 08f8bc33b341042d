// Chapter 06 exercises: padding. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in padded_transpose.cuh (do not modify
// it). Grade your work with
//     meson test -C build --suite ch06
#include "chapters/06_padded_transpose/padded_transpose.cuh"

namespace ch06 {

// Exercise 1a: the padding rule, for any tile of the contract. As shipped it never pads.
// ---- your code: exercise 1a ----
namespace {

// The wavefronts of a warp reading column `column` of 32 rows `pitch` elements of `bytes` apart:
// 2- and 4-byte loads are one group of 32 lanes, 8-byte ones two groups of 16, 16-byte ones four
// of 8; a group costs the most distinct 4-byte words any bank holds (two halves of one word are
// served together).
int column_read_wavefronts(int pitch, int bytes, int column) {
  const int group = bytes <= 4 ? 32 : 128 / bytes;
  const int words_per_lane = bytes < 4 ? 1 : bytes / 4;
  int total = 0;
  for (int first = 0; first < 32; first += group) {
    long long words[32 * 4];  // the distinct words this group touches
    int count = 0;
    for (int row = first; row < first + group; ++row) {
      for (int k = 0; k < words_per_lane; ++k) {
        const long long word = (static_cast<long long>(row) * pitch + column) * bytes / 4 + k;
        bool seen = false;
        for (int i = 0; i < count && !seen; ++i) seen = words[i] == word;
        if (!seen) words[count++] = word;
      }
    }
    int in_bank[32] = {};
    int busiest = 0;
    for (int i = 0; i < count; ++i) {
      const int n = ++in_bank[words[i] % 32];
      busiest = n > busiest ? n : busiest;
    }
    total += busiest;
  }
  return total;
}

}  // namespace

// The fewest a warp can take is one wavefront per 128 bytes; the first pitch from `columns` up
// at which every column reaches it. Columns a word apart cost the same, so the columns of the
// first word are enough: one for floats, doubles and float4s (the first odd pitch), two for
// halves (the first pitch of an odd number of words, unless a row fits in one word).
int padded_pitch(int element_bytes, int columns) {
  const int fewest = element_bytes <= 4 ? 1 : element_bytes / 4;
  const int first_word = columns < 2 || element_bytes > 2 ? 1 : 2;
  for (int pitch = columns;; ++pitch) {
    int worst = 0;
    for (int c = 0; c < first_word; ++c) {
      const int cost = column_read_wavefronts(pitch, element_bytes, c);
      worst = cost > worst ? cost : worst;
    }
    if (worst == fewest) return pitch;
  }
}
// ---- end of your code ----

// Exercise 1b: the padded layout. As shipped it is unpadded: row-major with 32 words per row, so
// a column load is 32-way.
// ---- your code: exercise 1b ----
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
