// Chapter 11, the maintainers' probes (solution mode only: grader/tools/make_grader_unit.py
// pastes this file after the exercise and the device probes). See reference_probes.hpp.
#include "solutions/11_tma_layouts/reference_probes.hpp"

#include <functional>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/harness/speed.hpp"

namespace ch11::reference_probes {

namespace {

// The reference's helpers (this file comes before the exercise in the grader's unit, so it
// holds its own copies).
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

constexpr TmaSwizzle kTransposeSwizzle = TmaSwizzle::k128B;  // the reference's exercise 3a

// The reference's tma_transpose_kernel, with `L` left out, and with `Stages` stages and
// `OutTiles` output tiles (the reference's kStages and kOutTiles, or one of each for the design
// that gives each block one tile).
template <LeftOut L, int Stages = kStages, int OutTiles = kOutTiles>
__global__ void __launch_bounds__(kThreads)
    transpose_left_out(const __grid_constant__ CUtensorMap in_map,
                       const __grid_constant__ CUtensorMap out_map, int rows, int cols) {
  // Given: where everything sits in shared memory, and which tiles this block transposes.
  // [stages 0 .. kStages - 1: tiles of kTileBoxes boxes of 64 rows x 128 bytes, box after box]
  // [kOutTiles output tiles: kTileCols rows x kBoxRows floats]
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ __align__(8) unsigned long long full[Stages];  // one mbarrier per stage
  unsigned char* const stages = aligned_stages(smem_raw);
  float* const out_tiles = reinterpret_cast<float*>(stages + Stages * kTileBytes);
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

  // Step 1: one mbarrier per stage, one arrival per phase; fenced, then published.
  if (t == 0) {
    for (int s = 0; s < Stages; ++s) ptx::mbarrier_init(full_at + 8 * s, 1);
    if (L != LeftOut::kInitFence) ptx::fence_mbarrier_init();
  }
  __syncthreads();
  // Step 2: thread 0 loads this block's i-th tile into its stage, box by box.
  const auto load = [&](int i) {
    const int tile = tile_of(i);
    if (tile < 0) return;
    const unsigned bar = full_at + 8 * (i % Stages);
    ptx::mbarrier_arrive_expect_tx(bar, kTileBytes);  // both boxes, zeros past the edge too
    for (int b = 0; b < kTileBoxes; ++b) {
      ptx::tma_load_2d(stages_at + (i % Stages) * kTileBytes + b * kBoxBytes, &in_map,
                       tile / tiles_y * kTileCols + b * kBoxCols, tile % tiles_y * kBoxRows, bar);
    }
  };
  if (t == 0) {
    for (int i = 0; i < Stages; ++i) load(i);
  }
  for (int i = 0; tile_of(i) >= 0; ++i) {
    const int tile = tile_of(i), stage = i % Stages;
    // Step 3: wait for the stage's tile: its (i / Stages)-th load, one phase each.
    ptx::mbarrier_wait(full_at + 8 * stage, (i / Stages) % 2);
    // Step 4: read chunk c % 8 of the four rows in box c / 8, turned, through the layout of
    // exercise 1.
    const unsigned char* in_box = stages + stage * kTileBytes + c / 8 * kBoxBytes;
    float4 read[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int row = 4 * q + (k + turn) % 4;
      read[k] = *reinterpret_cast<const float4*>(
          in_box + tma_smem_offset(kTransposeSwizzle, kBoxRowBytes, row, 16 * (c % 8)));
    }
    const Transposed block = transpose_turned_block(read, turn);
    // Step 5: the output tile. The store of two tiles ago must have read it (the previous
    // tile's store may still be reading the other one); then every thread writes its four
    // chunks, and fences them for the TMA.
    float* const out_tile = out_tiles + i % OutTiles * (kTileBytes / 4);
    if (t == 0 && L != LeftOut::kWaitReadOnReuse) ptx::tma_store_wait_read<OutTiles - 1>();
    __syncthreads();
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      *reinterpret_cast<float4*>(out_tile + (4 * c + e) * kBoxRows + 4 * q) = block.column[e];
    }
    if (L != LeftOut::kProxyFence) ptx::fence_proxy_async();
    __syncthreads();  // every thread's written, and every thread is done with the stage
    // Step 6: thread 0 stores the tile, and loads the stage again: the tile kStages further on.
    if (t == 0) {
      ptx::tma_store_2d(&out_map, tile % tiles_y * kBoxRows, tile / tiles_y * kTileCols,
                        static_cast<unsigned>(__cvta_generic_to_shared(out_tile)));
      ptx::tma_store_commit();
      load(i + Stages);
    }
  }
  // Step 7: the stores read shared memory until they complete; the block must outlive them.
  if (t == 0 && L != LeftOut::kWaitAllAtExit) ptx::tma_store_wait_all();
}

// Counts the elements of out (n x n) that are not in transposed.
__global__ void count_wrong(const float* in, const float* out, int n, unsigned* wrong) {
  const long long k = blockIdx.x * 1LL * blockDim.x + threadIdx.x;
  if (k >= 1LL * n * n) return;
  const long long r = k / n, c = k % n;
  if (out[c * n + r] != in[k]) atomicAdd(wrong, 1u);
}

template <LeftOut L>
int count_runs(int n, int runs) {
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>(k % 16777216);
  gpu::DeviceBuffer<float> in(host), out(host.size());
  gpu::DeviceBuffer<unsigned> wrong(1);
  const CUtensorMap in_map = make_input_map(in.get(), n, n);
  const CUtensorMap out_map = make_output_map(out.get(), n, n);
  GPU_CHECK(cudaFuncSetAttribute(transpose_left_out<L>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 kSharedBytes));
  const int blocks = ch11::probes::blocks_for(n, n);
  int wrong_runs = 0;
  for (int run = 0; run < runs; ++run) {
    out.fill_bytes(0xff);
    wrong.fill_bytes(0);
    transpose_left_out<L><<<blocks, kThreads, kSharedBytes>>>(in_map, out_map, n, n);
    GPU_CHECK_KERNEL("the reference transpose, a fence or wait left out");
    const long long elements = 1LL * n * n;
    count_wrong<<<static_cast<int>((elements + 255) / 256), 256>>>(in.get(), out.get(), n,
                                                                   wrong.get());
    GPU_CHECK_KERNEL("count_wrong");
    wrong_runs += wrong.download()[0] != 0;
  }
  return wrong_runs;
}

// The design with one tile per block: one stage, one output tile, a block for every tile, so
// that no stage is ever loaded twice and a block's shared memory is a third of the reference's.
constexpr int kOneTileSharedBytes = 2 * kTileBytes + 1024;

int tiles_of(int n) {
  return ((n + kTileCols - 1) / kTileCols) * ((n + kBoxRows - 1) / kBoxRows);
}

}  // namespace

DesignTimes time_ring_and_one_tile_per_block(int n, int rounds) {
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>(k % 16777216);
  gpu::DeviceBuffer<float> in(host), out(host.size()), copied(host.size());
  gpu::DeviceBuffer<unsigned> wrong(1);
  const CUtensorMap in_map = make_input_map(in.get(), n, n);
  const CUtensorMap out_map = make_output_map(out.get(), n, n);
  auto* const ring = transpose_left_out<LeftOut::kNothing>;
  auto* const one_tile = transpose_left_out<LeftOut::kNothing, 1, 1>;
  GPU_CHECK(cudaFuncSetAttribute(ring, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  GPU_CHECK(cudaFuncSetAttribute(one_tile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 kOneTileSharedBytes));
  DesignTimes times;
  times.ring_blocks = ch11::probes::blocks_for(n, n);
  times.one_tile_blocks = tiles_of(n);
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&times.ring_blocks_per_sm, ring, kThreads,
                                                          kSharedBytes));
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&times.one_tile_blocks_per_sm, one_tile,
                                                          kThreads, kOneTileSharedBytes));
  const auto launch_ring = [&] {
    ring<<<times.ring_blocks, kThreads, kSharedBytes>>>(in_map, out_map, n, n);
  };
  const auto launch_one_tile = [&] {
    one_tile<<<times.one_tile_blocks, kThreads, kOneTileSharedBytes>>>(in_map, out_map, n, n);
  };
  const auto wrong_elements = [&](const std::function<void()>& launch, const char* what) {
    out.fill_bytes(0xff);
    wrong.fill_bytes(0);
    launch();
    GPU_CHECK_KERNEL(what);
    const long long elements = 1LL * n * n;
    count_wrong<<<static_cast<int>((elements + 255) / 256), 256>>>(in.get(), out.get(), n,
                                                                   wrong.get());
    GPU_CHECK_KERNEL("count_wrong");
    return static_cast<long long>(wrong.download()[0]);
  };
  times.ring_wrong = wrong_elements(launch_ring, "the reference transpose");
  times.one_tile_wrong = wrong_elements(launch_one_tile, "the transpose of one tile per block");
  const size_t bytes = host.size() * sizeof(float);
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(
      {{"device copy (cudaMemcpyAsync)",
        [&] {
          GPU_CHECK(cudaMemcpyAsync(copied.get(), in.get(), bytes, cudaMemcpyDeviceToDevice));
        }},
       {"the reference (a ring of stages)", launch_ring},
       {"one tile per block", launch_one_tile}},
      2.0 * static_cast<double>(bytes), rounds);
  times.copy_ms = rows[0].median_ms;
  times.ring_ms = rows[1].median_ms;
  times.one_tile_ms = rows[2].median_ms;
  return times;
}

int runs_with_wrong_results(LeftOut left_out, int n, int runs) {
  switch (left_out) {
    case LeftOut::kNothing: return count_runs<LeftOut::kNothing>(n, runs);
    case LeftOut::kInitFence: return count_runs<LeftOut::kInitFence>(n, runs);
    case LeftOut::kProxyFence: return count_runs<LeftOut::kProxyFence>(n, runs);
    case LeftOut::kWaitAllAtExit: return count_runs<LeftOut::kWaitAllAtExit>(n, runs);
    case LeftOut::kWaitReadOnReuse: return count_runs<LeftOut::kWaitReadOnReuse>(n, runs);
  }
  return -1;
}

}  // namespace ch11::reference_probes
