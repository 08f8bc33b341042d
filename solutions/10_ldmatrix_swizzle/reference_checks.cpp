// Chapter 10, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// lesson's table of tiles and its other counted accesses, with kernels and layouts a hand-out
// must not hold. The table's plain and padded tiles are the reference with its tile changed
// ([ablation.NAME] of solutions/10_ldmatrix_swizzle/chapter.ini); its swizzled tile is the
// reference's own.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"
#include "grader/10_ldmatrix_swizzle/gemm_check.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"

// Each ablation's unit holds the device probes and the edited reference in namespace ch10_NAME.
namespace ch10_plain_tile::probes {
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);
}
namespace ch10_padded_tile::probes {
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);
}
namespace ch10_fill_only::probes {
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);
}
namespace ch10_no_fill::probes {
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);
}
namespace ch10_mma_only::probes {
void launch_yours(const __half* A, const __half* B, float* C, int M, int N, int K);
}

namespace {

using grader::chapter::kMeasurementFile;

struct Tile {
  const char* name;  // as the measurements name it
  const char* row;   // as the table prints it
  ch10::check::Launch launch;
};

const std::vector<Tile>& tiles() {
  static const std::vector<Tile> all = {
      {"plain", "plain tile (maintainers)", ch10_plain_tile::probes::launch_yours},
      {"padded16", "padded tile (maintainers)", ch10_padded_tile::probes::launch_yours},
      {"swizzled", "swizzled tile (maintainers)", ch10::probes::launch_yours},
  };
  return all;
}

// The reference's parts, each the reference with the others taken out (its results meaningless)
// and credited the reference's FLOPs: the most the whole kernel could reach were the others free.
const std::vector<Tile>& parts() {
  static const std::vector<Tile> all = {
      {"fill_only", "part: cp.async fill only", ch10_fill_only::probes::launch_yours},
      {"no_fill", "part: ldmatrix + mma only", ch10_no_fill::probes::launch_yours},
      {"mma_only", "part: mma.sync only", ch10_mma_only::probes::launch_yours},
  };
  return all;
}

}  // namespace

TEST_CASE("ch10 reference: the lesson's table of tiles, checked, counted and timed",
          "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(8, "cp.async and mma.sync.m16n8k16");
  // Each tile first gives the right results (it fails only if one of them is wrong).
  std::mt19937_64 rng(grader::run_seed() + 30);
  for (const Tile& tile : tiles()) {
    for (const auto& [M, N, K] : {std::tuple{256, 256, 256}, std::tuple{384, 128, 320}}) {
      const auto problem = ch10::check::check_against_fp64(
          tile.launch, tile.row, ch10::check::random_problem(M, N, K, rng));
      GRADER_EXPECT(!problem, *problem);
    }
  }
  // Their ldmatrix wavefronts, one block of 8 K-steps each.
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (counters.available) {
    const ch10::check::Problem p =
        ch10::check::random_problem(ch10::kTcBlock, ch10::kTcBlock, ch10::kTcKStep * 8, rng);
    gpu::DeviceBuffer<__half> a(p.A), b(p.B);
    gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
    for (const Tile& tile : tiles()) {
      const gpu::SmemCounters g = gpu::measure_smem_counters([&] {
        tile.launch(a.get(), b.get(), c.get(), p.M, p.N, p.K);
        GPU_CHECK(cudaGetLastError());
      });
      std::printf(
          "%s: %.0f load wavefronts, %.0f ldmatrix, %.0f cp.async taking %.0f wavefronts with "
          "%.0f bank conflicts counted\n",
          tile.row, g.load_wavefronts, g.ldsm_instructions, g.async_copy_instructions,
          g.async_copy_wavefronts, g.async_copy_conflicts);
      grader::record_measurement(
          kMeasurementFile, std::string("counted.gemm.") + tile.name + ".wavefronts_per_ldmatrix",
          g.load_wavefronts / std::max(1.0, g.ldsm_instructions), "");
      grader::record_measurement(
          kMeasurementFile, std::string("counted.gemm.") + tile.name + ".wavefronts_per_cp_async",
          g.async_copy_wavefronts / std::max(1.0, g.async_copy_instructions), "");
      grader::record_measurement(kMeasurementFile,
                                 std::string("counted.gemm.") + tile.name + ".cp_async_conflicts",
                                 g.async_copy_conflicts, "");
    }
  } else {
    std::cout << "hardware counters not read: " << counters.reason << "\n";
  }
  // Their speed, in turns with cuBLAS and the reference solution.
  constexpr int n = 4096;
  std::mt19937_64 fixed(5);
  const ch10::check::Problem p = ch10::check::random_problem(n, n, n, fixed);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(n) * n);
  const auto launch = [&](const ch10::check::Launch& kernel) {
    return [&a, &b, &c, kernel] { kernel(a.get(), b.get(), c.get(), n, n, n); };
  };
  std::vector<grader::TimedKernel> kernels = {{"cublasGemmEx", launch(ch10::probes::cublas_gemm)}};
  for (const Tile& tile : tiles()) kernels.push_back({tile.row, launch(tile.launch)});
  kernels.push_back({"tc_gemm_kernel (reference)", launch(ch10::probes::launch_yours)});
  for (const Tile& part : parts()) kernels.push_back({part.row, launch(part.launch)});
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 21);
  const double flops = 2.0 * n * n * n, cublas_ms = rows[0].median_ms;
  // Each tile's speed, which the lesson's table quotes (the kernels' speeds hold from run to run,
  // cuBLAS's, and with it every fraction of it, moves by a fifth), and its fraction of cuBLAS.
  for (std::size_t i = 1; i <= 3; ++i) {
    grader::record_measurement(kMeasurementFile,
                               std::string("gemm.") + tiles()[i - 1].name + "_tflops",
                               flops / rows[i].median_ms / 1e9, "TFLOP/s");
    grader::record_measurement(kMeasurementFile,
                               std::string("gemm.") + tiles()[i - 1].name + "_fraction_of_cublas",
                               cublas_ms / rows[i].median_ms, "");
  }
  // The reference's and cuBLAS's own speeds in this second timing of the run: the lesson and
  // the thresholds quote how much each moves from one timing to the next.
  grader::record_measurement(kMeasurementFile, "gemm.table.cublas_tflops", flops / cublas_ms / 1e9,
                             "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.table.reference_tflops",
                             flops / rows[4].median_ms / 1e9, "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.table.reference_fraction_of_cublas",
                             cublas_ms / rows[4].median_ms, "");
  // A kernel at the edge of its design takes about as long as its slowest part.
  double slowest_ms = 0;
  for (std::size_t i = 0; i < parts().size(); ++i) {
    grader::record_measurement(kMeasurementFile,
                               std::string("gemm.part.") + parts()[i].name + "_tflops",
                               flops / rows[5 + i].median_ms / 1e9, "TFLOP/s");
    slowest_ms = std::max(slowest_ms, rows[5 + i].median_ms);
  }
  grader::record_measurement(kMeasurementFile, "gemm.part.slowest_over_reference",
                             slowest_ms / rows[4].median_ms, "");
  std::printf("GEMM 4096^3, fp16 in, fp32 accumulate, median of 21 launches each, in turns:\n");
  for (const grader::SpeedRow& r : rows) {
    std::cout << gemm::speed_line(r.name, r.median_ms, flops, cublas_ms);
  }
  SUCCEED();
}

TEST_CASE("ch10 reference: the lesson's other counted accesses", "[reference]") {
  // Not graded, for the lesson and the wrong answers' notes: Swizzle<3, 4, 3> on 64-byte rows,
  // and the 16-byte stores and the cp.async that fill each tile, the swizzled ones with the
  // reference's choice.
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  std::vector<smem::WarpRequest> requests = {
      ch10::spec::ldmatrix_x4(64, ch10::Layout::kSwizzled, {3, 4, 3}, 0, 0, ch10::swizzle)};
  std::vector<std::string> names = {"counted.ldmatrix_x4.rows64.swizzle343"};
  for (int row_bytes : ch10::spec::kRowWidths) {
    for (const auto& [layout, name] :
         {std::pair{ch10::Layout::kPlain, "plain"}, std::pair{ch10::Layout::kPadded16, "padded16"},
          std::pair{ch10::Layout::kSwizzled, "swizzled"}}) {
      requests.push_back(ch10::spec::chunk_store(row_bytes, layout, ch10::chosen_swizzle(row_bytes),
                                                 1, ch10::swizzle));
      names.push_back("counted.store16.rows" + std::to_string(row_bytes) + "." + name);
      requests.push_back(ch10::spec::cp_async_fill(
          row_bytes, layout, ch10::chosen_swizzle(row_bytes), 0, ch10::swizzle));
      names.push_back("counted.cp_async.rows" + std::to_string(row_bytes) + "." + name);
    }
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (std::size_t k = 0; k < requests.size(); ++k) {
    grader::record_measurement(kMeasurementFile, names[k], measured[k].wavefronts, "wavefronts");
    // The counters agree with the model here too.
    CHECK(measured[k].wavefronts == smem::analyze(requests[k]).wavefronts);
  }
}
