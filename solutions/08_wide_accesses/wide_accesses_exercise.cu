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
// Chunk `chunk` of row `row` goes to chunk position chunk ^ ((row / 4) % 8) of its row.
//  - XOR with a value below 8 only permutes chunks within each half-row of 8 chunks
//    (0-7 and 8-15, 128 bytes each): a row is still its 16 chunks, and the 8 lanes of a
//    16-byte group storing chunks 0-7 (or 8-15) of a row still cover 128 contiguous bytes.
//  - The 8 lanes of a group loading a 4 x 4 block read rows 4 x + k for x = 0..7: rows 4 apart,
//    so (row / 4) % 8 = x takes 8 different values, and chunk y lands at 8 different positions
//    of 8 different rows: all 32 banks, one wavefront per group.
// Plain row-major (64 row + 4 chunk) puts those 8 chunks in the same 4 banks: 8 wavefronts per
// group. Padding rows by 16 bytes cannot help: rows 4 apart are then 4 x 68 floats apart, an
// odd multiple of 16 banks, and only 2 bank positions remain.
// The width only moves where a row starts: a row of 8 or more chunks is whole 128-byte lines, so
// every row starts in bank quad 0, and the same permutation serves every width.
__host__ __device__ int swizzled_chunk(int row, int chunk, int row_chunks) {
  return row * 4 * row_chunks + 4 * (chunk ^ ((row / 4) % 8));
}

// The kernel's tile, 16 chunks a row, written out (its index needs no multiplication by a
// variable width).
__host__ __device__ int tile_chunk_offset(int row, int chunk) {
  return row * kTile + 4 * (chunk ^ ((row / 4) % 8));
}
// ---- end of your code ----

// Exercise 2: float4 in, float4 into the tile, barrier, four float4 out of the tile, a 4 x 4
// transpose in registers, float4 out. Guard whole chunks at the edges.
// ---- your code: exercise 2 ----
__global__ void wide_transpose_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ __align__(16) float tile[kTileFloats];
  constexpr int kRowsPerThread = kTile / kBlockSide;  // 4
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;

  // 1. Four float4 of `in` per thread: rows y, y + 16, y + 32, y + 48 of the tile, chunk x.
  //    All four loads are issued before the first store to the tile.
  float4 staged[kRowsPerThread];
  const int c = tile_col + 4 * x;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int r = tile_row + y + kBlockSide * i;
    if (r < rows && c < cols)
      staged[i] = *reinterpret_cast<const float4*>(in + static_cast<long long>(r) * cols + c);
  }
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int r = tile_row + y + kBlockSide * i;
    if (r < rows && c < cols)
      *reinterpret_cast<float4*>(&tile[tile_chunk_offset(y + kBlockSide * i, x)]) = staged[i];
  }
  __syncthreads();  // every warp reads what other warps wrote

  // 2. The 4 x 4 block of tile rows 4 x .. 4 x + 3, chunk y:
  //    block[k] = (tile[4x + k][4y], tile[4x + k][4y + 1], tile[4x + k][4y + 2], ...).
  float4 block[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    block[k] = *reinterpret_cast<const float4*>(&tile[tile_chunk_offset(4 * x + k, y)]);
  // Row j of the transposed block is component j of every block[k]: what the plain loop
  //   for j, k: out[tile_col + 4y + j][tile_row + 4x + k] = tile[4x + k][4y + j]
  // writes, four elements at a time.
  const float4 transposed[4] = {make_float4(block[0].x, block[1].x, block[2].x, block[3].x),
                                make_float4(block[0].y, block[1].y, block[2].y, block[3].y),
                                make_float4(block[0].z, block[1].z, block[2].z, block[3].z),
                                make_float4(block[0].w, block[1].w, block[2].w, block[3].w)};
  const int out_col = tile_row + 4 * x;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int out_row = tile_col + 4 * y + j;
    if (out_row < cols && out_col < rows)
      *reinterpret_cast<float4*>(out + static_cast<long long>(out_row) * rows + out_col) =
          transposed[j];
  }
}
// ---- end of your code ----

// Exercise 3: wavefronts per warp request.
// ---- your code: exercise 3 ----
// A 16-byte request is served in groups of 8 lanes (lanes 0-7, 8-15, 16-23, 24-31) unless
// neighbouring lanes share addresses; a group moves at most 128 bytes per wavefront.
int predicted_tile_store_wavefronts() {
  return 4;  // each group writes 8 chunks = 128 contiguous bytes: 1 wavefront, 4 groups
}
int predicted_tile_load_wavefronts() {
  return 4;  // swizzled: each group's 8 chunks in 8 different bank quads, 1 wavefront each
}

namespace {
// Wavefronts of a warp request of `bytes`-byte accesses whose lanes do not merge (stores never
// do; the padded load's neighbouring lanes read different rows): groups of 128 / bytes lanes,
// each costing the most distinct words one bank must deliver, the groups' costs added.
template <typename Address>
int unmerged_wavefronts(int bytes, Address byte_address) {
  const int lanes_per_group = 128 / bytes;
  int total = 0;
  for (int first = 0; first < 32; first += lanes_per_group) {
    int words_in_bank[32][32];  // the distinct words of each bank, at most one per lane word
    int count[32] = {};
    for (int t = first; t < first + lanes_per_group; ++t) {
      for (int w = 0; w < bytes / 4; ++w) {
        const int word = static_cast<int>(byte_address(t) / 4) + w, bank = word % 32;
        bool seen = false;
        for (int i = 0; i < count[bank]; ++i) seen = seen || words_in_bank[bank][i] == word;
        if (!seen) words_in_bank[bank][count[bank]++] = word;
      }
    }
    int most = 0;
    for (int b = 0; b < 32; ++b) most = count[b] > most ? count[b] : most;
    total += most;
  }
  return total;
}
}  // namespace

// Rows 4 apart are 4 P floats apart. With P = 68 that is 272 words, 16 banks past a multiple of
// 32: the 8 rows of a float4 group sit at only 2 bank positions, 4 chunks each: 16 wavefronts.
// Other pitches and widths are counted the same way, lane by lane.
int predicted_padded_load_wavefronts(int pitch, int bytes) {
  const int wavefronts = unmerged_wavefronts(bytes, [pitch](int t) {
    // Warp 0's load 0 (the rows and chunks shift alike for every warp and load): chunk
    // t / 16 of row 4 (t % 16).
    return 4LL * (pitch * 4 * (t % 16) + 4 * (t / 16));
  });
  return wavefronts;  // rows 4 apart
}
// Stores never merge: two groups of 16 lanes, each 8 distinct float2 (stride 1: 64 bytes, one
// wavefront each, 2 in all).
int predicted_float2_pairs_store_wavefronts(int stride) {
  const int wavefronts = unmerged_wavefronts(8, [stride](int t) { return 8LL * stride * (t / 2); });
  return wavefronts;  // stores never merge
}
// ---- end of your code ----

}  // namespace ch08
