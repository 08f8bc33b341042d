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

// Exercise 2a: wavefronts of a warp reading a column of any 32-row box of the contract.
// ---- your code: exercise 2a ----
int predicted_column_wavefronts(TmaSwizzle mode, ColumnRead read, int box_row_bytes, int column) {
  (void)box_row_bytes;
  (void)column;
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

// Exercise 2c: wavefronts of a column read at any pitch of the contract.
// ---- your code: exercise 2c ----
int predicted_padded_column_wavefronts(int pitch_floats) {
  (void)pitch_floats;
  return kNotImplemented;
}  // TODO
// ---- end of your code ----

namespace {
// Where the stages start: at a multiple of 1024 bytes, because a swizzled layout follows the
// absolute shared address, and 1024 bytes is a multiple of every mode's atom (section 2 of the
// lesson).
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
  // Step 1 (FILL ME IN, roughly 5 lines). The goal: every stage's mbarrier ready, and seen
  // ready by the whole block, before any thread uses one. A phase completes after the number
  // of arrivals its init asked for: who arrives on a stage's mbarrier in your pipeline? The
  // rules are section 5 of the lesson ("An mbarrier counts arrivals and bytes"); a phase that
  // never completes is reported with its mbarrier and parity.

  // Step 2 (FILL ME IN, roughly 12 lines). The goal: a way for one thread to bring this
  // block's i-th tile, if it has one, into its stage (box b of the tile at b * kBoxBytes of the
  // stage; the tile's place in `in` is said above), with the stage's mbarrier told every byte
  // the tile will bring (the contract in tma_layouts.cuh says which bytes count); then the
  // ring's first fill. The grader reports a phase waiting for bytes that never come.
  // ---- end of your code ----

  for (int i = 0; tile_of(i) >= 0; ++i) {
    const int tile = tile_of(i), stage = i % kStages;
    // ---- your code: exercise 3b, steps 3 and 4 ----
    // Step 3 (FILL ME IN, 1 line). No thread reads the stage before tile i has landed in it.
    // A wait names the phase it waits for by its parity (section 5: "Phases alternate"): which
    // phase of this stage's mbarrier does tile i's load complete? The grader's stress run loads
    // every stage more than once, so a parity that does not follow the loads shows there.

    // Step 4 (FILL ME IN, roughly 6 lines). read[k], k = 0 .. 3, is this thread's chunk of the
    // k-th row of its block in the turned order (both said above), each one 16-byte read from
    // where the TMA put that chunk in kTransposeSwizzle: your exercise 1 knows where. The
    // grader counts these reads' wavefronts: the contract asks for no conflict.
    float4 read[4] = {};
    // ---- end of your code ----

    const Transposed block = transpose_turned_block(read, turn);           // given
    float* const out_tile = out_tiles + i % kOutTiles * (kTileBytes / 4);  // given
    // ---- your code: exercise 3b, steps 5 and 6 ----
    // Step 5 (FILL ME IN, roughly 9 lines). The goal: the transposed block in output tile
    // out_tile (where each block.column[e] goes is said above Transposed; a row of the tile
    // holds kBoxRows floats), written only once that tile's previous TMA store has finished
    // reading it, and visible to the TMA before it is stored (section 5: "The TMA store reads
    // shared memory through another path"). While one output tile is stored the other fills:
    // how many of the storing thread's store groups may still be reading at that point? The
    // grader counts the writes' wavefronts, and its stress run shows a tile overwritten early.

    // Step 6 (FILL ME IN, roughly 6 lines). The goal: the tile stored by the TMA where the
    // transpose puts it in `out` (the transpose of its place in `in`), in a store group of its
    // own, and the stage refilled with this block's tile kStages further on, once no thread
    // will read the stage again: is that already so here?

    // The skeleton's placeholders, so that it compiles as shipped: delete once you use them.
    (void)tile, (void)stage, (void)stages, (void)out_tile, (void)block, (void)stages_at,
        (void)full_at, (void)q, (void)c;
    // ---- end of your code ----
  }
  // ---- your code: exercise 3b, step 7 ----
  // Step 7 (FILL ME IN, 1 line). The block must not end while its TMA stores may still read
  // the output tiles, which live only as long as the block.
  // ---- end of your code ----
}

}  // namespace ch11
