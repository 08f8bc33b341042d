// Chapter 11 exercises: Hopper TMA layouts. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in tma_layouts.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch11
#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/cuda/tma_map.hpp"

namespace ch11 {

// Exercise 1: where the TMA puts byte `byte` of box row `row`. As shipped: right for kNone only.
// ---- your code: exercise 1 ----
__host__ __device__ int tma_smem_offset(TmaSwizzle mode, int box_row_bytes, int row, int byte) {
  (void)mode;
  return row * box_row_bytes + byte;  // TODO: the three swizzled modes
}
// ---- end of your code ----

// Exercise 2a: wavefronts of a warp reading a column of a 32-row box.
// ---- your code: exercise 2a ----
int predicted_column_wavefronts(TmaSwizzle mode, ColumnRead read) {
  if (read == ColumnRead::kWords) {
    if (mode == TmaSwizzle::kNone) return kNotImplemented;  // TODO: words, kNone
    if (mode == TmaSwizzle::k32B) return kNotImplemented;   // TODO: words, k32B
    if (mode == TmaSwizzle::k64B) return kNotImplemented;   // TODO: words, k64B
    if (mode == TmaSwizzle::k128B) return kNotImplemented;  // TODO: words, k128B
  }
  if (read == ColumnRead::kChunks) {
    if (mode == TmaSwizzle::kNone) return kNotImplemented;  // TODO: chunks, kNone
    if (mode == TmaSwizzle::k32B) return kNotImplemented;   // TODO: chunks, k32B
    if (mode == TmaSwizzle::k64B) return kNotImplemented;   // TODO: chunks, k64B
    if (mode == TmaSwizzle::k128B) return kNotImplemented;  // TODO: chunks, k128B
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 2b: the least row pitch (floats, above 32) of a TMA box.
// ---- your code: exercise 2b ----
int least_padded_pitch() {
  return kNotImplemented;
}  // TODO
// ---- end of your code ----

// Exercise 2c: wavefronts of a column read at that pitch.
// ---- your code: exercise 2c ----
int predicted_padded_column_wavefronts() {
  return kNotImplemented;
}  // TODO
// ---- end of your code ----

namespace {
// Where the stages start: at a multiple of 1024 bytes, because the TMA's 128-byte pattern
// follows bits 7-9 of the absolute shared address (section 2 of the lesson).
__device__ __forceinline__ unsigned char* aligned_stages(unsigned char* raw) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  return raw + ((1024 - address % 1024) % 1024);
}

// The 4 x 4 block a thread read, as the output tile wants it. read[k] is chunk c of tile row
// 4 q + (k + turn) % 4 (the turned order of section 3 of the lesson); column[e] of the result
// is float e of rows 4 q .. 4 q + 3, which row 4 c + e of the output tile holds at floats
// 4 q .. 4 q + 3.
struct Transposed {
  float4 column[4];
};
__device__ __forceinline__ Transposed transpose_turned_block(const float4 (&read)[4], int turn) {
  // Undo the turn: rotate right by `turn` (selects, not an indexed array, which would go to
  // local memory), so that v[j] is row 4 q + j.
  float4 v[4] = {read[0], read[1], read[2], read[3]};
  if (turn & 1) {
    const float4 last = v[3];
    v[3] = v[2], v[2] = v[1], v[1] = v[0], v[0] = last;
  }
  if (turn & 2) {
    float4 x = v[0];
    v[0] = v[2], v[2] = x;
    x = v[1], v[1] = v[3], v[3] = x;
  }
  return {{make_float4(v[0].x, v[1].x, v[2].x, v[3].x), make_float4(v[0].y, v[1].y, v[2].y, v[3].y),
           make_float4(v[0].z, v[1].z, v[2].z, v[3].z),
           make_float4(v[0].w, v[1].w, v[2].w, v[3].w)}};
}
}  // namespace

// Exercise 3a: the layout the input boxes are written in, and read through tma_smem_offset: the
// mode in which your reads of step 4 below are conflict-free. As shipped the boxes are plain.
// ---- your code: exercise 3a ----
constexpr TmaSwizzle kTransposeSwizzle = TmaSwizzle::kNone;  // TODO
// ---- end of your code ----

CUtensorMap make_input_map(const float* in, int rows, int cols) {
  return gpu::make_float_tma_map_2d(
      in, rows, cols, kBoxRows, kBoxCols, static_cast<CUtensorMapSwizzle>(kTransposeSwizzle),
      "the input map of tma_transpose_kernel", CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

CUtensorMap make_output_map(float* out, int rows, int cols) {
  return gpu::make_float_tma_map_2d(
      out, cols, rows, kTileCols, kBoxRows, CU_TENSOR_MAP_SWIZZLE_NONE,
      "the output map of tma_transpose_kernel", CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

// Exercise 3b: the TMA transpose (the contract is in tma_layouts.cuh, the pipeline in section 5
// of the lesson). Given: where everything sits in shared memory, which tiles this block
// transposes, which 4 x 4 block of each tile a thread takes, and the transpose of that block in
// registers. Yours: the pipeline, steps 1-7. As shipped the kernel writes nothing.
__global__ void __launch_bounds__(kThreads)
    tma_transpose_kernel(const __grid_constant__ CUtensorMap in_map,
                         const __grid_constant__ CUtensorMap out_map, int rows, int cols) {
  // Given: where everything sits in shared memory, and which tiles this block transposes.
  // [stages 0 .. kStages - 1: tiles of kTileBoxes boxes of 64 rows x 128 bytes, box after box]
  // [kOutTiles output tiles: kTileCols rows x kBoxRows floats]
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ __align__(8) unsigned long long full[kStages];  // one mbarrier per stage
  unsigned char* const stages = aligned_stages(smem_raw);
  float* const out_tiles = reinterpret_cast<float*>(stages + kStages * kTileBytes);
  const unsigned stages_at = static_cast<unsigned>(__cvta_generic_to_shared(stages));
  const unsigned full_at = static_cast<unsigned>(__cvta_generic_to_shared(full));
  const int t = static_cast<int>(threadIdx.x);
  const int tiles_y = (rows + kBoxRows - 1) / kBoxRows;
  const int tiles = tiles_y * ((cols + kTileCols - 1) / kTileCols);
  // This block's i-th tile, numbered down the columns of tiles, or -1 past its last. Its
  // first float is at (column, row) = (tile / tiles_y * kTileCols, tile % tiles_y * kBoxRows)
  // of `in`; it goes to stage i % kStages, whose mbarrier is at full_at + 8 * (i % kStages).
  const auto tile_of = [&](int i) {
    const int tile = static_cast<int>(blockIdx.x) + i * static_cast<int>(gridDim.x);
    return tile < tiles ? tile : -1;
  };
  // Thread t transposes the 4 x 4 block of rows 4 q .. 4 q + 3, floats 4 c .. 4 c + 3 of each
  // tile: chunk c % 8 of box c / 8, reading its rows in the turned order (section 3 of the
  // lesson).
  const int q = t % 16, c = t / 16, turn = (q / 2) % 4;

  // ---- your code: exercise 3b, steps 1 and 2 ----
  // Step 1 (FILL ME IN, roughly 5 lines): thread 0 initialises the mbarrier of each stage s,
  // at full_at + 8 * s (ptx::mbarrier_init: how many arrivals complete a phase, when only
  // thread 0 arrives?), and fences the inits (ptx::fence_mbarrier_init); then the whole block
  // synchronises, before any thread uses an mbarrier.

  // Step 2 (FILL ME IN, roughly 12 lines): a helper load(i) for thread 0, that loads this
  // block's i-th tile, if it has one, into stage i % kStages (kTileBytes from stages_at on, box
  // b at b * kBoxBytes): it arrives on the stage's mbarrier telling it how many bytes the TMA
  // will bring for the whole tile (ptx::mbarrier_arrive_expect_tx), then issues the copy of
  // each box, box b at (column, row) = (tile / tiles_y * kTileCols + b * kBoxCols,
  // tile % tiles_y * kBoxRows) of in_map (ptx::tma_load_2d). Then thread 0 fills the first
  // kStages stages.
  // ---- end of your code ----

  for (int i = 0; tile_of(i) >= 0; ++i) {
    const int tile = tile_of(i), stage = i % kStages;
    // ---- your code: exercise 3b, steps 3 and 4 ----
    // Step 3 (FILL ME IN, 1 line): every thread waits for the stage's tile (ptx::mbarrier_wait).
    // A stage's u-th load (u = 0, 1, ...) completes its mbarrier's phase of parity u % 2: which
    // load of stage `stage` brought tile i?

    // Step 4 (FILL ME IN, roughly 6 lines): read[k], k = 0 .. 3, is chunk c % 8 (bytes
    // 16 (c % 8) .. 16 (c % 8) + 15) of row 4 q + (k + turn) % 4 of box c / 8: a float4 read
    // from box c / 8 of the stage (it starts at stages + stage * kTileBytes + c / 8 *
    // kBoxBytes) at the offset your tma_smem_offset gives in kTransposeSwizzle for rows of
    // kBoxRowBytes.
    float4 read[4] = {};
    // ---- end of your code ----

    const Transposed block = transpose_turned_block(read, turn);           // given
    float* const out_tile = out_tiles + i % kOutTiles * (kTileBytes / 4);  // given
    // ---- your code: exercise 3b, steps 5 and 6 ----
    // Step 5 (FILL ME IN, roughly 9 lines): the output tile i % kOutTiles, above. Its previous
    // TMA store (kOutTiles tiles ago) must have read it before anyone writes it: thread 0 waits
    // for that (ptx::tma_store_wait_read<N> lets at most N of its stores still read: which N?),
    // then the block synchronises. Each thread writes block.column[e], e = 0 .. 3, to row
    // 4 c + e of the tile at floats 4 q .. 4 q + 3 (a row holds kBoxRows floats), fences its
    // writes for the TMA (ptx::fence_proxy_async), and the block synchronises again.

    // Step 6 (FILL ME IN, roughly 6 lines): thread 0 TMA-stores the tile at (column, row) =
    // (tile % tiles_y * kBoxRows, tile / tiles_y * kTileCols) of out_map (ptx::tma_store_2d),
    // closes the group of that store (ptx::tma_store_commit), and loads the stage again: this
    // block's tile kStages further on.

    // The skeleton's placeholders, so that it compiles as shipped: delete once you use them.
    (void)tile, (void)stage, (void)stages, (void)out_tile, (void)block, (void)stages_at,
        (void)full_at, (void)q, (void)c;
    // ---- end of your code ----
  }
  // ---- your code: exercise 3b, step 7 ----
  // Step 7 (FILL ME IN, 1 line): thread 0 waits until its stores are complete
  // (ptx::tma_store_wait_all): they read the output tiles, which live only as long as the block.
  // ---- end of your code ----
}

}  // namespace ch11
