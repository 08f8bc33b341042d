// Chapter 10 GPU checks: the counters against exercise 2b's predictions; tc_gemm_kernel against
// fp64 and cuBLAS, its counted shared accesses against the contract, and its speed against the
// grader's wmma kernel and cuBLAS, timed in the same run.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"
#include "grader/10_ldmatrix_swizzle/feed_spec.hpp"
#include "grader/10_ldmatrix_swizzle/gemm_check.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch10::check::check_against_fp64;
using ch10::check::Problem;
using ch10::check::random_problem;
using ch10::check::tolerance;
using ch10::check::wrong_result;
using grader::chapter::kMeasurementFile;

// cp.async and this mma shape need 8.0 (ldmatrix alone 7.5).
#define NEEDS_SM80() GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(8, "cp.async and mma.sync.m16n8k16")

const char* measured_name(ch10::Layout layout) {
  switch (layout) {
    case ch10::Layout::kPlain: return "plain";
    case ch10::Layout::kPadded16: return "padded16";
    case ch10::Layout::kSwizzled: return "swizzled";
  }
  return "?";
}

// fill_copy and fragment_offset must be in range and consistent before the kernel runs (it
// would write or read shared memory out of place): the reason it does not run yet, or nothing.
std::optional<grader::Feedback> not_runnable() {
  const auto fault = ch10::feed::feed_fault();
  if (!fault) return std::nullopt;
  return grader::not_run_while_invalid(*fault, std::string(grader::chapter::checks::ex3a.name) +
                                                   "\" and \"" +
                                                   grader::chapter::checks::ex3b.name);
}

// The quick check that gates the counters' and the speed's points: one 256^3 problem against fp64.
bool wrong_on_a_quick_problem() {
  std::mt19937_64 rng(grader::run_seed() + 21);
  return check_against_fp64(ch10::probes::launch_yours_on_poisoned_shared, "tc_gemm_kernel",
                            random_problem(256, 256, 256, rng))
      .has_value();
}

}  // namespace

WORKBOOK_CHECK(ex2b_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // The plain and padded tiles are the interface's; the swizzled one is laid out by your own
  // swizzle and chosen_swizzle, once exercises 1 and 2a hold them right. Your variant's cases.
  std::vector<ch10::spec::LdmatrixCase> asked;
  std::vector<smem::WarpRequest> requests;
  const bool swizzle_right = ch10::spec::swizzle_right();
  for (const ch10::spec::LdmatrixCase& c : ch10::spec::ldmatrix_cases(grader::variant::current())) {
    ch10::SwizzleParams p;
    if (c.layout == ch10::Layout::kSwizzled) {
      if (!swizzle_right || ch10::spec::chosen_swizzle_problem(c.row_bytes)) {
        GRADER_EXPECT(false, grader::Feedback(
                                 "Not counted: the ldmatrix.x4 on " + std::to_string(c.row_bytes) +
                                 "-byte rows, swizzled, is counted on your own layout, "
                                 "once exercises 1 and 2a pass.")
                                 .hint("finish exercises 1 and 2a (see the host checks) first."));
        continue;
      }
      p = ch10::chosen_swizzle(c.row_bytes);
    }
    asked.push_back(c);
    requests.push_back(ch10::spec::ldmatrix_x4(c.row_bytes, c.layout, p, c.r0, c.c, ch10::swizzle));
  }
  if (requests.empty()) return;
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (std::size_t n = 0; n < asked.size(); ++n) {
    const int row_bytes = asked[n].row_bytes;
    const ch10::Layout layout = asked[n].layout;
    const int counted = measured[n].wavefronts;
    grader::record_measurement(
        kMeasurementFile,
        "counted.ldmatrix_x4.rows" + std::to_string(row_bytes) + "." + measured_name(layout),
        counted, "wavefronts");
    const int predicted = ch10::predicted_ldmatrix_wavefronts(row_bytes, layout);
    GRADER_EXPECT(
        counted == predicted,
        grader::Feedback("The GPU counted " + grader::more_or_fewer(counted, predicted) +
                         " wavefronts than you predicted (" + std::to_string(predicted) +
                         ") for the ldmatrix.x4 on " + std::to_string(row_bytes) + "-byte rows, " +
                         ch10::spec::name(layout) + " (" + ch10::spec::case_words(asked[n]) + ").")
            .reveal("It counted " + grader::wavefronts(counted) + ":")
            .reveal(grader::draw(requests[n])));
  }
}

WORKBOOK_CHECK(ex3_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM80();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  std::mt19937_64 rng(grader::run_seed() + 20);
  const int shapes[][3] = {{128, 128, 64}, {256, 128, 192}, {128, 384, 128}, {256, 256, 640}};
  double worst = 0;
  for (const auto& s : shapes) {
    const Problem p = random_problem(s[0], s[1], s[2], rng);
    const auto problem = check_against_fp64(ch10::probes::launch_yours_on_poisoned_shared,
                                            "tc_gemm_kernel", p, &worst);
    if (problem) GRADER_FAIL(*problem);
  }
  grader::record_measurement(kMeasurementFile, "tc.worst_error_in_tolerances", worst, "");
  // Correct; and through the stages? A product read straight from global memory is correct too.
  const Problem p = random_problem(2 * ch10::kTcBlock, 2 * ch10::kTcBlock, 8 * ch10::kTcKStep, rng);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  const auto unstaged = gemm::operands_not_staged(
      [&] {
        ch10::probes::launch_yours(a.get(), b.get(), c.get(), p.M, p.N, p.K);
        GPU_CHECK(cudaGetLastError());
      },
      "tc_gemm_kernel", p.M, p.N, p.K, ch10::kTcBlock, ch10::kTcBlock, sizeof(__half),
      kMeasurementFile);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex3_vs_cublas) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM80();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  std::mt19937_64 rng(grader::run_seed() + 21);
  const int shapes[][3] = {{4096, 4096, 4096}, {1024, 2048, 320}, {384, 640, 2048}};
  double worst_cublas = 0;
  for (const auto& s : shapes) {
    const Problem p = random_problem(s[0], s[1], s[2], rng);
    const gemm::WithCublas r =
        gemm::run_with_cublas(ch10::probes::launch_yours_on_poisoned_shared, "tc_gemm_kernel",
                              ch10::probes::cublas_gemm, p);
    // cuBLAS first, on 256 sampled entries against fp64.
    if (const auto wrong =
            gemm::sampled_mismatch(p, r.cublas, {tolerance(p.K)}, rng, &worst_cublas)) {
      GRADER_FAIL(gemm::cublas_inaccurate(*wrong, " on " + gemm::shape(p))
                      .line("The grader compares fp32 accumulation with fp32 accumulation only.")
                      .hint("is a cuBLAS math mode or environment variable forcing reduced "
                            "precision?"));
    }
    if (const auto wrong = gemm::disagreement(p, r, {2 * tolerance(p.K)})) {
      const float cublas = r.cublas[static_cast<size_t>(wrong->i) * p.N + wrong->j];
      GRADER_FAIL(wrong_result("tc_gemm_kernel", p, *wrong)
                      .line("cuBLAS gives " + std::to_string(cublas) + "."));
    }
  }
  grader::record_measurement(kMeasurementFile, "cublas.worst_error_in_tolerances", worst_cublas,
                             "");
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM80();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  // Correctness gates the counters: a kernel that reads the wrong bytes can read them fast.
  if (wrong_on_a_quick_problem()) {
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not counted", "tc_gemm_kernel gives wrong results"));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  constexpr int steps = 8;
  std::mt19937_64 rng(grader::run_seed() + 22);
  const Problem p = random_problem(ch10::kTcBlock, ch10::kTcBlock, ch10::kTcKStep * steps, rng);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  const auto launch = [&] {
    ch10::probes::launch_yours(a.get(), b.get(), c.get(), p.M, p.N, p.K);
    GPU_CHECK(cudaGetLastError());
  };
  const gpu::SmemCounters got = gpu::measure_smem_counters(launch);
  grader::chapter::show_lines_if_asked([&] { return grader::chapter::lines_of(launch); });
  // Per K-step: 4 warps x 32 ldmatrix.x4, one wavefront per matrix at best, and 4 warps x 16
  // cp.async, one wavefront per 128-byte line of A or B each reads (4) at best. Nsight
  // Compute's cp.async bank-conflict counter reads 0 whatever the layout: wavefronts it is.
  const double ldmatrix = 4.0 * 32 * steps, ideal_loads = 4 * ldmatrix, copies = 4.0 * 16 * steps;
  const double ideal_copy_wavefronts = 4 * copies;
  const bool copy_wavefronts_counted = got.async_copy_wavefronts >= 0;
  char counted[600];
  std::snprintf(counted, sizeof counted,
                "one block, %d K-steps: counted %.0f ldmatrix and %.0f other shared loads taking "
                "%.0f wavefronts (%.2f per ldmatrix), %.0f cp.async taking %.0f wavefronts (%.2f "
                "per cp.async), and %.0f shared stores; the contract's %.0f ldmatrix.x4 take 4 "
                "wavefronts each at best, its %.0f cp.async 4 each (one per 128-byte line read).",
                steps, got.ldsm_instructions, got.load_instructions, got.load_wavefronts,
                got.load_wavefronts / std::max(1.0, got.ldsm_instructions),
                got.async_copy_instructions, got.async_copy_wavefronts,
                got.async_copy_wavefronts / std::max(1.0, got.async_copy_instructions),
                got.store_instructions, ldmatrix, copies);
  std::cout << counted << "\n";
  grader::record_measurement(kMeasurementFile, "counted.gemm.yours.wavefronts_per_ldmatrix",
                             got.load_wavefronts / std::max(1.0, got.ldsm_instructions), "");
  if (copy_wavefronts_counted) {
    grader::record_measurement(
        kMeasurementFile, "counted.gemm.yours.wavefronts_per_cp_async",
        got.async_copy_wavefronts / std::max(1.0, got.async_copy_instructions), "");
  }
  const bool copies_counted = got.async_copy_instructions >= 0;
  GRADER_EXPECT(got.ldsm_instructions == ldmatrix && got.load_instructions == 0 &&
                    got.store_instructions == 0 &&
                    (!copies_counted || got.async_copy_instructions == copies),
                grader::Feedback("Your kernel's count of shared accesses is not the contract's.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("per K-step each warp issues 16 cp.async (8 copies of A's tile, 8 of "
                          "B's) and 32 ldmatrix.x4, and no other shared access."));
  GRADER_EXPECT(got.load_wavefronts <= ideal_loads,
                grader::Feedback("The GPU counted more shared-load wavefronts in your kernel than "
                                 "its ldmatrix.x4 need: they conflict.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("the 8 rows of each matrix must sit in 8 different bank quads."));
  if (!copy_wavefronts_counted) {
    std::cout << "cp.async wavefronts not counted: this profiler does not offer "
                 "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.\n";
    return;
  }
  GRADER_EXPECT(got.async_copy_wavefronts <= ideal_copy_wavefronts,
                grader::Feedback("The GPU counted more wavefronts in your kernel's cp.async than "
                                 "the lines they read need.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("each group of 8 lanes copies one 128-byte line of A or B: keep its 8 "
                          "chunks in one 128-byte line of shared memory, permuted by an XOR (a "
                          "padded row is rotated, and crosses a line)."));
}

WORKBOOK_CHECK(ex3_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM80();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {  // correctness gates speed
    GRADER_FAIL(grader::not_judged_while_wrong("Not timed", "tc_gemm_kernel gives wrong results"));
  }
  constexpr int n = 4096;
  std::mt19937_64 rng(5);
  const Problem p = random_problem(n, n, n, rng);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(n) * n);
  const double flops = 2.0 * n * n * n;
  const auto launch = [&](auto kernel) {
    return [&a, &b, &c, kernel] { kernel(a.get(), b.get(), c.get(), n, n, n); };
  };
  // In turns: the H200 slows as it heats, and this way it slows every kernel alike.
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(
      {{"cublasGemmEx", launch(ch10::probes::cublas_gemm)},
       {"wmma kernel (grader)", launch(ch10::probes::launch_wmma_baseline)},
       {"tc_gemm_kernel (yours)", launch(ch10::probes::launch_yours)}},
      0, 21);
  const double cublas_ms = rows[0].median_ms, baseline_ms = rows[1].median_ms,
               yours_ms = rows[2].median_ms;
  const double speedup = baseline_ms / yours_ms;
  grader::record_measurement(kMeasurementFile, "gemm.tflops", flops / yours_ms / 1e9, "TFLOP/s");
  const gemm::AgainstCeiling ceiling =
      gemm::record_speed(kMeasurementFile, "wmma", flops, cublas_ms, baseline_ms, yours_ms, true);
  std::string table =
      "GEMM 4096 x 4096 x 4096, fp16 in, fp32 accumulate, median of 21 launches each, in turns:\n";
  for (const grader::SpeedRow& r : rows)
    table += gemm::speed_line(r.name, r.median_ms, flops, cublas_ms);
  char last[100];
  std::snprintf(last, sizeof last, "  tc_gemm_kernel is %.2fx the grader's wmma kernel.\n",
                speedup);
  table += last + ceiling.line;
  std::cout << table;
  const auto verdict = gemm::judge_speedup(
      "tc_gemm_kernel", "the grader's wmma kernel", speedup,
      grader::chapter::threshold("speedup_over_wmma"), table,
      "the counters check above shows whether the ldmatrix reads or the cp.async writes take "
      "more wavefronts than they need; a plain tile is about as slow as the grader's kernel.",
      ceiling.refused);
  GRADER_EXPECT(!verdict, *verdict);
}
