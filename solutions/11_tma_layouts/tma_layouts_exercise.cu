// Chapter 11, reference solution. The contracts are in tma_layouts.cuh.
#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/cuda/tma_map.hpp"

namespace ch11 {

__host__ __device__ int tma_smem_offset(TmaSwizzle mode, int box_row_bytes, int row, int byte) {
  // Without a swizzle the box lands densely, row after row. A swizzled mode gives every box row
  // its whole span (32, 64 or 128 bytes), however narrow the row; then each 16-byte chunk moves:
  // its index within the span is XORed with the 128-byte line's index (bits 7 and up of the
  // offset), not with the box row's.
  const int span = mode == TmaSwizzle::kNone ? box_row_bytes : 16 << static_cast<int>(mode);
  const int a = row * span + byte;
  switch (mode) {
    case TmaSwizzle::kNone: return a;
    case TmaSwizzle::k32B: return a ^ ((a >> 3) & 0x10);
    case TmaSwizzle::k64B: return a ^ ((a >> 3) & 0x30);
    case TmaSwizzle::k128B: return a ^ ((a >> 3) & 0x70);
  }
  return kNotImplemented;
}

namespace {
// Wavefronts of a warp reading down a column of 32 rows, lane t at byte `byte_of(t)`, `bytes`
// each: groups of 128 / bytes lanes (the rows differ, so no lanes merge), each costing the most
// distinct words one bank must deliver, the groups' costs added.
template <typename ByteOf>
int column_wavefronts(int bytes, ByteOf byte_of) {
  const int lanes_per_group = 128 / bytes;
  int total = 0;
  for (int first = 0; first < 32; first += lanes_per_group) {
    int words_in_bank[32][32];
    int count[32] = {};
    for (int t = first; t < first + lanes_per_group; ++t) {
      for (int w = 0; w < bytes / 4; ++w) {
        const int word = byte_of(t) / 4 + w, bank = word % 32;
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

int greatest_common_divisor(int a, int b) {
  return b == 0 ? a : greatest_common_divisor(b, a % b);
}
}  // namespace

// Variant 0: without a swizzle every 128-byte row starts in bank 0 (32 for words, 32 for chunks:
// a group's 8 rows in one bank quad); a swizzle moves chunks whole, so float 0 of a row can be
// in one of 8 banks only (4-way in every mode) and each group's 8 chunks land in 8 quads (4).
// Your variant's box is laid out by tma_smem_offset and counted lane by lane.
int predicted_column_wavefronts(TmaSwizzle mode, ColumnRead read) {
  const int row_bytes = column_box_row_bytes(mode), column = column_read_float(mode);
  const bool words = read == ColumnRead::kWords;
  const int byte = words ? 4 * column : 16 * (column / 4);
  return column_wavefronts(words ? 4 : 16,
                           [&](int t) { return tma_smem_offset(mode, row_bytes, t, byte); });
}

int least_padded_pitch() {
  const int columns = padded_tile_columns();  // 32 in variant 0
  const int pitch = columns / 4 * 4 + 4;      // the next multiple of 4 floats above
  return pitch;
}  // box rows are multiples of 16 bytes: 4 floats

int predicted_padded_column_wavefronts() {
  // Row t starts in bank (pitch t) % 32: 32 / gcd(pitch, 32) banks, gcd(pitch, 32) rows each.
  const int ways = greatest_common_divisor(least_padded_pitch(), 32);
  return ways;
}  // 36 r mod 32 = 4 r: 8 banks, 4-way

namespace {
// Where the read stage starts: at a multiple of 1024 bytes, because the TMA's 128-byte pattern
// follows bits 7-9 of the absolute shared address.
__device__ __forceinline__ unsigned char* aligned_stages(unsigned char* raw) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  return raw + ((1024 - address % 1024) % 1024);
}
}  // namespace

constexpr TmaSwizzle kTransposeSwizzle = TmaSwizzle::k128B;

CUtensorMap make_input_map(const float* in, int rows, int cols) {
  return gpu::make_float_tma_map_2d(
      in, rows, cols, kBoxRows, kBoxCols, static_cast<CUtensorMapSwizzle>(kTransposeSwizzle),
      "the input map of tma_transpose_kernel", CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

CUtensorMap make_output_map(float* out, int rows, int cols) {
  return gpu::make_float_tma_map_2d(out, cols, rows, kBoxCols, kBoxRows, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    "the output map of tma_transpose_kernel",
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

__global__ void __launch_bounds__(kThreads)
    tma_transpose_kernel(const __grid_constant__ CUtensorMap in_map,
                         const __grid_constant__ CUtensorMap out_map, int rows, int cols) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ __align__(8) unsigned long long full[kStages];  // one mbarrier per stage
  // [stages 0 .. kStages - 1: boxes of 64 rows x 128 bytes][2 output tiles: 32 rows x 256 bytes]
  unsigned char* const stages = aligned_stages(smem_raw);
  float* const out_tiles = reinterpret_cast<float*>(stages + kStages * kBoxBytes);
  const unsigned stages_at = static_cast<unsigned>(__cvta_generic_to_shared(stages));
  const unsigned full_at = static_cast<unsigned>(__cvta_generic_to_shared(full));
  const int t = static_cast<int>(threadIdx.x);
  const int boxes_x = (cols + kBoxCols - 1) / kBoxCols;
  const int boxes = boxes_x * ((rows + kBoxRows - 1) / kBoxRows);

  if (t == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(full_at + 8 * s, 1);
    ptx::fence_mbarrier_init();
  }
  __syncthreads();
  // Thread 0 loads this block's i-th box into stage i % kStages.
  const auto load = [&](int i) {
    const int box = static_cast<int>(blockIdx.x) + i * static_cast<int>(gridDim.x);
    if (box >= boxes) return;
    const unsigned bar = full_at + 8 * (i % kStages);
    ptx::mbarrier_arrive_expect_tx(bar, kBoxBytes);  // the whole box, zeros past the edge too
    ptx::tma_load_2d(stages_at + (i % kStages) * kBoxBytes, &in_map, box % boxes_x * kBoxCols,
                     box / boxes_x * kBoxRows, bar);
  };
  if (t == 0) {
    for (int i = 0; i < kStages; ++i) load(i);
  }

  // Thread t transposes the 4 x 4 block of rows 4 q .. 4 q + 3, floats 4 c .. 4 c + 3 of each
  // box: q = t % 16, c = t / 16. Lanes 0-15 of a warp then write one 256-byte row of the
  // output tile. A group of 8 lanes (q = 0-7 or 8-15) reads chunk c of rows 4 q + j: read in
  // the same order j = 0..3, they would be rows 4 apart, only two values of row % 8. Each lane
  // starts at j = (q / 2) % 4 instead, so the group's 8 rows have 8 different row % 8, and the
  // 128-byte swizzle puts their chunk c in 8 different bank quads.
  const int q = t % 16, c = t / 16, turn = (q / 2) % 4;
  for (int i = 0;; ++i) {
    const int box = static_cast<int>(blockIdx.x) + i * static_cast<int>(gridDim.x);
    if (box >= boxes) break;
    const int stage = i % kStages;
    ptx::mbarrier_wait(full_at + 8 * stage, (i / kStages) % 2);
    const unsigned char* in_box = stages + stage * kBoxBytes;
    float4 v[4];  // v[k]: row 4 q + (k + turn) % 4
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int row = 4 * q + (k + turn) % 4;
      v[k] = *reinterpret_cast<const float4*>(
          in_box + tma_smem_offset(kTransposeSwizzle, kBoxRowBytes, row, 16 * c));
    }
    // Undo the turn: rotate v right by `turn`, so that v[j] is row 4 q + j.
    if (turn & 1) {
      const float4 last = v[3];
      v[3] = v[2], v[2] = v[1], v[1] = v[0], v[0] = last;
    }
    if (turn & 2) {
      float4 x = v[0];
      v[0] = v[2], v[2] = x;
      x = v[1], v[1] = v[3], v[3] = x;
    }
    // The output tile's row 4 c + e is column 4 c + e of the box; its floats 4 q .. 4 q + 3 are
    // element e of rows 4 q .. 4 q + 3. Before writing a tile, the TMA store of two boxes ago
    // must have read it (the previous box's store may still be reading the other tile).
    float* const out_tile = out_tiles + i % kOutTiles * (kBoxBytes / 4);
    if (t == 0) ptx::tma_store_wait_read<kOutTiles - 1>();
    __syncthreads();
    const float4 column[4] = {
        make_float4(v[0].x, v[1].x, v[2].x, v[3].x), make_float4(v[0].y, v[1].y, v[2].y, v[3].y),
        make_float4(v[0].z, v[1].z, v[2].z, v[3].z), make_float4(v[0].w, v[1].w, v[2].w, v[3].w)};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      *reinterpret_cast<float4*>(out_tile + (4 * c + e) * kBoxRows + 4 * q) = column[e];
    }
    ptx::fence_proxy_async();  // these writes, visible to the TMA store
    __syncthreads();           // every thread's written, and every thread is done with the stage
    if (t == 0) {
      ptx::tma_store_2d(&out_map, box / boxes_x * kBoxRows, box % boxes_x * kBoxCols,
                        static_cast<unsigned>(__cvta_generic_to_shared(out_tile)));
      ptx::tma_store_commit();
      load(i + kStages);  // the stage is free: the box kStages further on
    }
  }
  if (t == 0) ptx::tma_store_wait_all();
}

}  // namespace ch11
