// Chapter 09 GPU checks: the counters against exercise 1's predictions, sgemm_kernel against an
// fp64 reference and cuBLAS, the counters against the layout's promise, and its speed against
// the grader's classic kernel and cuBLAS, timed in the same run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/device_probes.hpp"
#include "grader/09_tiled_gemm/gemm_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using grader::chapter::kMeasurementFile;

using ch09::check::compare_with_fp64;
using ch09::check::kTolerance;
using ch09::check::Problem;
using ch09::check::random_problem;
using gemm::run;

}  // namespace

WORKBOOK_CHECK(ex1_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // TILE = 32 too (at k = 5): the lesson quotes what the H200 counts there. Then your variant's
  // tiles, each at its own column k.
  std::vector<ch09::spec::GradedTile> tiles = {{32, 5}};
  for (const ch09::spec::GradedTile& t : ch09::spec::graded_tiles(grader::variant::current())) {
    tiles.push_back(t);
  }
  std::vector<smem::WarpRequest> requests;
  for (const ch09::spec::GradedTile& t : tiles) {
    for (ch09::Access a : ch09::kAllAccesses) {
      requests.push_back(ch09::spec::classic_request(a, t.tile, 0, t.k));
    }
  }
  {  // The classic kernel as compiled: its shared loads per multiply-add (the lesson quotes them).
    constexpr int tile = 32, tiles = 4;
    std::mt19937_64 rng(grader::run_seed() + 8);
    const Problem p = random_problem(tile, tile, tile * tiles, rng);
    gpu::DeviceBuffer<float> a(p.A), b(p.B), c(static_cast<size_t>(tile) * tile);
    const gpu::SmemCounters classic = gpu::measure_smem_counters([&] {
      ch09::probes::launch_classic(a.get(), b.get(), c.get(), p.M, p.N, p.K);
      GPU_CHECK(cudaGetLastError());
    });
    const double fma_instructions = tile * tile / 32.0 * p.K;  // each warp: one FFMA per k
    grader::record_measurement(kMeasurementFile, "classic.shared_loads_per_fma",
                               classic.load_instructions / fma_instructions, "");
    grader::record_measurement(kMeasurementFile, "classic.wavefronts_per_shared_load",
                               classic.load_wavefronts / std::max(1.0, classic.load_instructions),
                               "");
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  std::size_t n = 0;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const int tile = tiles[i].tile;
    for (ch09::Access a : ch09::kAllAccesses) {
      const int counted = measured[n].wavefronts;
      const smem::WarpRequest& request = requests[n++];
      grader::record_measurement(
          kMeasurementFile, "counted.tile" + std::to_string(tile) + "." + ch09::spec::short_name(a),
          counted, "wavefronts");
      if (i == 0) continue;
      const int predicted = ch09::predicted_wavefronts(a, tile);
      const std::string call =
          "predicted_wavefronts(" + ch09::spec::name(a) + ", " + std::to_string(tile) + ")";
      if (counted == predicted) {
        SUCCEED();
        continue;
      }
      const std::string slip = ch09::spec::transposed_read_slip(a, tile, predicted, counted);
      if (predicted == ch09::kNotImplemented) {
        GRADER_EXPECT(false, grader::prediction_not_done(call, "exercise 1"));
        continue;
      }
      grader::Feedback f("The GPU counted " + grader::more_or_fewer(counted, predicted) +
                         " wavefronts than " + call + " says (" + std::to_string(predicted) +
                         "), for warp 0 at " + ch09::spec::tile_words(tiles[i]) + ".");
      if (!slip.empty()) f.line(slip);
      GRADER_EXPECT(false, f.hint("which (tx, ty) does one warp hold?")
                               .reveal("The GPU counted " + grader::wavefronts(counted) + ":")
                               .reveal(grader::draw(request)));
    }
  }
}

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  std::mt19937_64 rng(grader::run_seed() + 9);
  const int shapes[][3] = {
      {128, 128, 8}, {256, 128, 24}, {128, 384, 520}, {384, 256, 40}, {256, 512, 8}};
  for (const auto& s : shapes) {
    const Problem p = random_problem(s[0], s[1], s[2], rng);
    const std::vector<float> c = run(ch09::probes::launch_yours, p, "sgemm_kernel");
    const auto problem = compare_with_fp64(p, c, "sgemm_kernel");
    if (problem) GRADER_FAIL(*problem);
  }
  // Correct; and through the tiles? A product read straight from global memory is correct too.
  const Problem p = random_problem(2 * ch09::kBlockM, 2 * ch09::kBlockN, 8 * ch09::kBlockK, rng);
  gpu::DeviceBuffer<float> a(p.A), b(p.B), c(static_cast<size_t>(p.M) * p.N);
  const auto unstaged = gemm::operands_not_staged(
      [&] {
        ch09::probes::launch_yours(a.get(), b.get(), c.get(), p.M, p.N, p.K);
        GPU_CHECK(cudaGetLastError());
      },
      "sgemm_kernel", p.M, p.N, p.K, ch09::kBlockM, ch09::kBlockN, sizeof(float), kMeasurementFile);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex2_vs_cublas) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  constexpr int n = 4096;
  std::mt19937_64 rng(grader::run_seed() + 10);
  const Problem p = random_problem(n, n, n, rng);
  const gemm::WithCublas r = gemm::run_with_cublas(ch09::probes::launch_yours, "sgemm_kernel",
                                                   ch09::probes::cublas_sgemm, p);
  // cuBLAS first: on 256 sampled entries against fp64, so that a TF32 default cannot pass.
  if (const auto wrong = gemm::sampled_mismatch(p, r.cublas, {kTolerance}, rng)) {
    GRADER_FAIL(gemm::cublas_inaccurate(*wrong)
                    .line("Is TF32 forced on (NVIDIA_TF32_OVERRIDE=1, or a cuBLAS math mode)? "
                          "The grader compares fp32 with fp32 only.")
                    .hint("unset NVIDIA_TF32_OVERRIDE and run again."));
  }
  if (const auto wrong = gemm::disagreement(p, r, {2 * kTolerance})) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "C[%d][%d]: yours %.9g, cuBLAS %.9g, exact %.9g (tolerance %.3g).", wrong->i,
                  wrong->j, static_cast<double>(wrong->got),
                  static_cast<double>(r.cublas[static_cast<size_t>(wrong->i) * n + wrong->j]),
                  wrong->exact, 2 * kTolerance * wrong->magnitude);
    grader::Feedback f("sgemm_kernel disagrees with cuBLAS on 4096 x 4096 x 4096.");
    f.line(line);
    if (std::isnan(wrong->got)) f.line("That element was never written (C was filled with NaN).");
    GRADER_FAIL(f.hint("the smaller shapes above show the first error more plainly."));
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (ch09::spec::check_as_layout(ch09::as_offset) ||
      ch09::spec::check_ownership(ch09::thread_row, ch09::thread_col)) {
    GRADER_FAIL(grader::Feedback("Not counted: as_offset or the thread mapping fails its host "
                                 "check (exercises 2a and 2b).")
                    .hint("make the host checks pass first."));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  constexpr int steps = 8;
  std::mt19937_64 rng(grader::run_seed() + 11);
  const Problem p = random_problem(ch09::kBlockM, ch09::kBlockN, ch09::kBlockK * steps, rng);
  gpu::DeviceBuffer<float> a(p.A), b(p.B), c(static_cast<size_t>(p.M) * p.N);
  const auto launch = [&] {
    ch09::probes::launch_yours(a.get(), b.get(), c.get(), p.M, p.N, p.K);
    GPU_CHECK(cudaGetLastError());
  };
  const gpu::SmemCounters got = gpu::measure_smem_counters(launch);
  grader::chapter::show_lines_if_asked([&] { return grader::chapter::lines_of(launch); });
  const ch09::spec::Promise want =
      ch09::spec::promise(ch09::as_offset, ch09::thread_row, ch09::thread_col, steps);
  grader::record_measurement(kMeasurementFile, "counted.load_wavefronts_per_request",
                             got.load_wavefronts / std::max(1.0, got.load_instructions), "");
  grader::record_measurement(kMeasurementFile, "counted.store_wavefronts_per_request",
                             got.store_wavefronts / std::max(1.0, got.store_instructions), "");
  char counted[300];
  std::snprintf(counted, sizeof counted,
                "one block, %d K-steps: counted %.0f load wavefronts in %.0f shared loads and %.0f "
                "store wavefronts in %.0f shared stores; your layout promises %.0f in %.0f and "
                "%.0f in %.0f.",
                steps, got.load_wavefronts, got.load_instructions, got.store_wavefronts,
                got.store_instructions, want.load_wavefronts, want.load_instructions,
                want.store_wavefronts, want.store_instructions);
  std::cout << counted << "\n";
  GRADER_EXPECT(got.load_instructions == want.load_instructions &&
                    got.store_instructions == want.store_instructions,
                grader::Feedback("Your kernel's shared accesses are not the contract's.")
                    .line(counted)
                    .hint("per K-step each warp makes 4 scalar stores and 1 float4 store, and 32 "
                          "float4 loads (2 of As and 2 of Bs for each k); read and write shared "
                          "memory only that way."));
  char ideal[200];
  std::snprintf(ideal, sizeof ideal,
                "Without conflicts the same accesses take %.0f load and %.0f store wavefronts.",
                want.load_ideal, want.store_ideal);
  GRADER_EXPECT(
      got.load_wavefronts <= want.load_ideal && got.store_wavefronts <= want.store_ideal,
      grader::Feedback("The GPU counted more shared-memory wavefronts in your kernel "
                       "than its accesses need.")
          .line(counted)
          .line(ideal)
          .picture(grader::chapter::lines_of(launch))
          .hint(want.load_wavefronts > want.load_ideal || want.store_wavefronts > want.store_ideal
                    ? "as_offset or the thread mapping conflicts: the host check shows "
                      "which access."
                    : "as_offset and the mapping are conflict-free, so the kernel does "
                      "not follow them: address As through as_offset and own the "
                      "outputs thread_row and thread_col name."));
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  {  // Correctness gates speed: a quick check first.
    std::mt19937_64 rng(grader::run_seed() + 12);
    const Problem p = random_problem(256, 256, 64, rng);
    if (compare_with_fp64(p, run(ch09::probes::launch_yours, p, "sgemm_kernel"), "sgemm_kernel")) {
      GRADER_FAIL(grader::not_judged_while_wrong("Not timed", "sgemm_kernel gives wrong results"));
    }
  }
  constexpr int n = 4096;
  std::mt19937_64 rng(5);
  const Problem p = random_problem(n, n, n, rng);
  gpu::DeviceBuffer<float> a(p.A), b(p.B), c(static_cast<size_t>(n) * n);
  const double flops = 2.0 * n * n * n;
  const auto time = [&](const char* name, auto launch) {
    return grader::time_kernel(
               name, [&] { launch(a.get(), b.get(), c.get(), n, n, n); }, 0, 15)
        .median_ms;
  };
  const double cublas_ms = time("cublasSgemm", ch09::probes::cublas_sgemm);
  const double classic_ms = time("classic 32 x 32 tiles", ch09::probes::launch_classic);
  const double yours_ms = time("sgemm_kernel", ch09::probes::launch_yours);
  const ch09::probes::Resources resources = ch09::probes::yours_resources();
  grader::record_measurement(kMeasurementFile, "gemm.registers", resources.registers, "registers");
  grader::record_measurement(kMeasurementFile, "gemm.local_bytes", resources.local_bytes, "bytes");
  grader::record_measurement(kMeasurementFile, "gemm.shared_bytes", resources.shared_bytes,
                             "bytes");
  grader::record_measurement(kMeasurementFile, "gemm.blocks_per_sm", resources.blocks_per_sm, "");
  std::printf(
      "sgemm_kernel: %d registers, %d bytes of local memory, %d bytes of shared memory "
      "per block: %d blocks of %d threads per SM.\n",
      resources.registers, resources.local_bytes, resources.shared_bytes, resources.blocks_per_sm,
      ch09::kThreads);
  const double speedup = classic_ms / yours_ms;
  const gemm::AgainstCeiling ceiling = gemm::record_speed(kMeasurementFile, "classic", flops,
                                                          cublas_ms, classic_ms, yours_ms, false);
  char than_classic[40];
  std::snprintf(than_classic, sizeof than_classic, "  (%.2fx the classic kernel)", speedup);
  const std::string table =
      "SGEMM 4096 x 4096 x 4096, fp32, median of 15 launches each:\n" +
      gemm::speed_line("cublasSgemm", cublas_ms, flops, cublas_ms) +
      gemm::speed_line("classic 32 x 32 tiles", classic_ms, flops, cublas_ms) +
      gemm::speed_line("sgemm_kernel (yours)", yours_ms, flops, cublas_ms, 28, than_classic) +
      ceiling.line;
  std::cout << table;
  const auto verdict = gemm::judge_speedup(
      "sgemm_kernel", "the classic kernel", speedup,
      grader::chapter::threshold("speedup_over_classic"), table,
      "every shared access conflict-free (the host checks), float4 reads of both tiles, and 8 x "
      "8 outputs per thread kept in registers.",
      ceiling.refused);
  GRADER_EXPECT(!verdict, *verdict);
}
