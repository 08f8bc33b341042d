// Chapter 11, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// layouts the lesson shows, from the TMA's own dumps, the reference's tma_smem_offset against
// them, the lesson's other counted reads, and what the reference's ablations ([ablation.NAME] of
// chapter.ini) do, which a hand-out must not hold.
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/speed.hpp"

// The ablations: the reference with one fence or wait left out, each launched as the grader
// launches a student's kernel; and with one stage and one output tile.
namespace ch11_no_init_fence::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}
namespace ch11_no_proxy_fence::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}
namespace ch11_no_wait_all_at_exit::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}
namespace ch11_no_wait_read_on_reuse::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}
namespace ch11_one_tile_per_block {
__global__ void tma_transpose_kernel(const __grid_constant__ CUtensorMap in_map,
                                     const __grid_constant__ CUtensorMap out_map, int rows,
                                     int cols);
}

namespace {
using ch11::TmaSwizzle;
using grader::chapter::kMeasurementFile;

// An n x n matrix on the device whose element k holds k modulo 2^24.
gpu::DeviceBuffer<float> numbered_matrix(int n) {
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>(k % 16777216);
  return gpu::DeviceBuffer<float>(host);
}

}  // namespace

TEST_CASE("ch11 reference: the layouts the lesson shows, as the TMA writes them", "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers");
  // The reference's tma_smem_offset against every byte of every box exercise 1's GPU check
  // loads: the lesson's statement of the rule (layout.model_mismatches).
  int model_mismatches = 0;
  for (TmaSwizzle mode : ch11::spec::kModes) {
    for (int row_bytes = 16; row_bytes <= std::min(ch11::spec::widest_row(mode), 144);
         row_bytes += 16) {
      const int box_rows = 64, box_cols = row_bytes / 4;
      const std::vector<int> where = ch11::probes::tma_box_layout(mode, box_rows, box_cols);
      for (int r = 0; r < box_rows; ++r) {
        for (int c = 0; c < box_cols; ++c) {
          model_mismatches += where[static_cast<size_t>(r * box_cols + c)] !=
                              ch11::tma_smem_offset(mode, row_bytes, r, 4 * c);
        }
      }
      // The lesson's tables: where each chunk of box rows 0-7 landed within its 128-byte line,
      // for rows as wide as the span, and for 32-byte rows in the 128-byte mode.
      if ((mode != TmaSwizzle::kNone && row_bytes == ch11::spec::widest_row(mode)) ||
          (mode == TmaSwizzle::k128B && row_bytes == 32)) {
        for (int r = 0; r < 8; ++r) {
          for (int c = 0; c < box_cols / 4; ++c) {
            grader::record_measurement(kMeasurementFile,
                                       std::string("layout.") + ch11::spec::name(mode) + ".rows" +
                                           std::to_string(row_bytes) + ".row" + std::to_string(r) +
                                           ".chunk" + std::to_string(c),
                                       where[static_cast<size_t>(r * box_cols + 4 * c)] % 128 / 16,
                                       "place in line");
          }
        }
      }
    }
  }
  grader::record_measurement(kMeasurementFile, "layout.model_mismatches", model_mismatches, "");
  CHECK(model_mismatches == 0);
  // A destination 128 bytes past a 1024-byte boundary: the 128B pattern follows the absolute
  // address, so the box is not where a 1024-aligned one would be.
  const std::vector<float> dump = ch11::probes::dump_tma_box(TmaSwizzle::k128B, 8, 32, 128);
  int same = 0;
  for (int k = 0; k < 256; ++k) {
    const int code = static_cast<int>(dump[static_cast<size_t>(k)]) - 1;
    same += 4 * k == ch11::tma_smem_offset(TmaSwizzle::k128B, 128, code / 4096, 4 * (code % 4096));
  }
  grader::record_measurement(kMeasurementFile, "layout.k128B.base128.words_as_if_aligned", same,
                             "of 256");
}

TEST_CASE("ch11 reference: the lesson's other counted reads", "[reference]") {
  // Not graded, for the lesson: a column of doubles in a box of 128-byte rows, plain and 128B,
  // and the transpose's first chunk read, rows 4 apart and turned, in its neighbour, a 64B box
  // of 64-byte rows. The reference's tma_smem_offset lays the boxes out (the check above holds
  // it to the TMA).
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  std::vector<smem::WarpRequest> requests;
  for (TmaSwizzle mode : {TmaSwizzle::kNone, TmaSwizzle::k128B}) {
    requests.push_back(smem::WarpRequest::from_lanes(
        8, smem::Op::kLoad, [&](int t) { return ch11::tma_smem_offset(mode, 128, t, 0); }));
  }
  for (bool turn : {false, true}) {
    requests.push_back(smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int t) {
      const int q = t % 16;
      return ch11::tma_smem_offset(TmaSwizzle::k64B, 64, 4 * q + (turn ? q / 2 % 4 : 0),
                                   16 * (t / 16));
    }));
  }
  const char* names[] = {"counted.doubles_column.kNone", "counted.doubles_column.k128B",
                         "counted.transpose_read.rows_4_apart", "counted.transpose_read.turned"};
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (std::size_t k = 0; k < requests.size(); ++k) {
    grader::record_measurement(kMeasurementFile, names[k], measured[k].wavefronts, "wavefronts");
    CHECK(measured[k].wavefronts == smem::analyze(requests[k]).wavefronts);
  }
}

TEST_CASE("ch11 reference: what leaving out a fence or a wait does", "[reference]") {
  // Not graded, for the lesson: the reference transpose with one of its fences or waits left
  // out, run again and again on the graded size. A slip the runs never show cannot be graded by
  // behaviour; the lesson says so.
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers");
  constexpr int n = 8192, runs = 20;
  grader::record_measurement(kMeasurementFile, "left_out.runs", runs, "runs of 8192 x 8192");
  const std::pair<void (*)(const float*, float*, int, int), const char*> cases[] = {
      {ch11::probes::launch_yours, "left_out.nothing.wrong_runs"},
      {ch11_no_init_fence::probes::launch_yours, "left_out.init_fence.wrong_runs"},
      {ch11_no_proxy_fence::probes::launch_yours, "left_out.proxy_fence.wrong_runs"},
      {ch11_no_wait_all_at_exit::probes::launch_yours, "left_out.wait_all_at_exit.wrong_runs"},
      {ch11_no_wait_read_on_reuse::probes::launch_yours, "left_out.wait_read_on_reuse.wrong_runs"}};
  const gpu::DeviceBuffer<float> in = numbered_matrix(n);
  gpu::DeviceBuffer<float> out(in.size());
  for (const auto& [launch, name] : cases) {
    int wrong = 0;
    for (int run = 0; run < runs; ++run) {
      out.fill_bytes(0xff);
      launch(in.get(), out.get(), n, n);
      GPU_CHECK_KERNEL("the reference transpose, a fence or wait left out");
      wrong += ch11::probes::wrong_in_numbered_transpose(out.get(), n) != 0;
    }
    grader::record_measurement(kMeasurementFile, name, wrong, "runs with a wrong element");
    if (launch == ch11::probes::launch_yours) CHECK(wrong == 0);
  }
}

TEST_CASE("ch11 reference: the ring of stages against one tile per block", "[reference]") {
  // Not graded, for the lesson: what the ring of stages costs a transpose. The same kernel with
  // one stage and one output tile, a block for every tile (no stage is loaded twice), timed in
  // turns with the reference at the grader's launch and the device copy.
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers");
  constexpr int n = 8192, rounds = 31;
  // One stage and one output tile: a block's shared memory is a third of the reference's.
  constexpr int one_tile_shared_bytes = 2 * ch11::kTileBytes + 1024;
  // The kernels' host stubs, for the runtime's C API (a .cpp has no <<<>>>).
  const void* const ring = reinterpret_cast<const void*>(&ch11::tma_transpose_kernel);
  const void* const one_tile =
      reinterpret_cast<const void*>(&ch11_one_tile_per_block::tma_transpose_kernel);
  const gpu::DeviceBuffer<float> in = numbered_matrix(n);
  gpu::DeviceBuffer<float> out(in.size()), copied(in.size());
  CUtensorMap in_map = ch11::make_input_map(in.get(), n, n);
  CUtensorMap out_map = ch11::make_output_map(out.get(), n, n);
  int rows = n, cols = n;
  void* args[] = {&in_map, &out_map, &rows, &cols};
  const int ring_blocks = ch11::probes::blocks_for(n, n);  // sets the reference's shared memory
  GPU_CHECK(cudaFuncSetAttribute(one_tile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 one_tile_shared_bytes));
  const int one_tile_blocks =
      ((n + ch11::kTileCols - 1) / ch11::kTileCols) * ((n + ch11::kBoxRows - 1) / ch11::kBoxRows);
  int ring_blocks_per_sm = 0, one_tile_blocks_per_sm = 0;
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ring_blocks_per_sm, ring, ch11::kThreads,
                                                          ch11::kSharedBytes));
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&one_tile_blocks_per_sm, one_tile,
                                                          ch11::kThreads, one_tile_shared_bytes));
  const auto launch_ring = [&] {
    GPU_CHECK(
        cudaLaunchKernel(ring, dim3(ring_blocks), dim3(ch11::kThreads), args, ch11::kSharedBytes));
  };
  const auto launch_one_tile = [&] {
    GPU_CHECK(cudaLaunchKernel(one_tile, dim3(one_tile_blocks), dim3(ch11::kThreads), args,
                               one_tile_shared_bytes));
  };
  const auto wrong_after = [&](const std::function<void()>& launch, const char* what) {
    out.fill_bytes(0xff);
    launch();
    GPU_CHECK_KERNEL(what);
    return ch11::probes::wrong_in_numbered_transpose(out.get(), n);
  };
  const long long ring_wrong = wrong_after(launch_ring, "the reference transpose");
  const long long one_tile_wrong =
      wrong_after(launch_one_tile, "the transpose of one tile per block");
  const size_t bytes = in.bytes();
  const std::vector<grader::SpeedRow> times = grader::time_kernels_in_turns(
      {{"device copy (cudaMemcpyAsync)",
        [&] {
          GPU_CHECK(cudaMemcpyAsync(copied.get(), in.get(), bytes, cudaMemcpyDeviceToDevice));
        }},
       {"the reference (a ring of stages)", launch_ring},
       {"one tile per block", launch_one_tile}},
      2.0 * static_cast<double>(bytes), rounds);
  INFO("ring: " << ring_blocks << " blocks, " << ring_blocks_per_sm
                << " per SM; one tile per block: " << one_tile_blocks << " blocks, "
                << one_tile_blocks_per_sm << " per SM");
  CHECK(ring_wrong == 0);
  CHECK(one_tile_wrong == 0);
  grader::record_measurement(kMeasurementFile, "design.ring.fraction_of_copy",
                             times[0].median_ms / times[1].median_ms, "");
  grader::record_measurement(kMeasurementFile, "design.one_tile_per_block.fraction_of_copy",
                             times[0].median_ms / times[2].median_ms, "");
  grader::record_measurement(kMeasurementFile, "design.ring.blocks_per_sm", ring_blocks_per_sm,
                             "blocks");
  grader::record_measurement(kMeasurementFile, "design.one_tile_per_block.blocks_per_sm",
                             one_tile_blocks_per_sm, "blocks");
}
