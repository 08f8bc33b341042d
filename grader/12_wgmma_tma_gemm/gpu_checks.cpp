// Chapter 12 GPU checks: your descriptors and the pairings through wgmma itself; the epilogue's
// stores through the counters; wgmma_gemm_kernel exact on small shapes in every layout and ring
// length, against cuBLAS on 4096^3, its shared stores and loads counted, and its speed against
// the grader's baseline, with cuBLAS and the four layouts side by side.
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"
#include "grader/12_wgmma_tma_gemm/kernel_runs.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch12::OperandLayout;
using ch12::runs::kPipelineHint;
using ch12::runs::not_runnable;
using ch12::runs::wrong_on_a_quick_problem;
using ch12::spec::name;
using grader::chapter::kMeasurementFile;

// wgmma needs sm_90a code: elsewhere (an older GPU, Blackwell) the GPU checks skip, saying why.
#define NEEDS_WGMMA()                                                                      \
  do {                                                                                     \
    if (const auto why_not_ = ch12::probes::no_wgmma_here()) GRADER_SKIP(*why_not_ + "."); \
  } while (0)

// The measurement name of a layout: "sw128", "sw64", "sw32", "interleave".
const char* key(OperandLayout layout) {
  switch (layout) {
    case OperandLayout::k128B: return "sw128";
    case OperandLayout::k64B: return "sw64";
    case OperandLayout::k32B: return "sw32";
    case OperandLayout::kInterleave: return "interleave";
  }
  return "?";
}

}  // namespace

WORKBOOK_CHECK(ex1_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  for (OperandLayout layout : ch12::kOperandLayouts) {
    const int wrong =
        ch12::probes::wrong_elements_with_your_descriptors(layout, grader::run_seed() + 7);
    grader::record_measurement(kMeasurementFile,
                               std::string("descriptor.") + key(layout) + ".wrong_elements", wrong,
                               "elements");
    GRADER_EXPECT(wrong == 0,
                  grader::Feedback(
                      wrong < 0 ? "Not run in " + std::string(name(layout)) +
                                      ": your descriptor's start address lies outside the tile."
                                : "wgmma, reading K-tiles laid out as the TMA writes them in " +
                                      std::string(name(layout)) +
                                      " (A's 64 rows, B's 256) through your "
                                      "wgmma_descriptor for each k16 step, got " +
                                      std::to_string(wrong) + " of the 16384 elements of C wrong.")
                      .hint("exercise 1; its host check names the field that differs."));
  }
}

WORKBOOK_CHECK(ex2a_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  // The pairings change one field of your own descriptors: run once they read every layout.
  for (OperandLayout layout : ch12::kOperandLayouts) {
    if (ch12::probes::wrong_elements_with_your_descriptors(layout, grader::run_seed() + 8) != 0) {
      GRADER_FAIL(grader::Feedback(
                      "Not run: the pairings start from your own descriptors, which wgmma does "
                      "not read right yet in " +
                      std::string(name(layout)) + ".")
                      .hint("finish exercise 1 first (see the check above)."));
    }
  }
  for (const ch12::Pairing& p : ch12::spec::variant_pairings(grader::variant::current())) {
    const int wrong =
        ch12::probes::wrong_elements_of_pairing(p, static_cast<unsigned>(grader::run_seed()) + 9);
    const int reads_right = wrong == 0 ? 1 : 0;
    const std::string code = ch12::spec::pairing_code(p);
    grader::record_measurement(kMeasurementFile, "pairing." + code + ".wrong_elements", wrong,
                               "elements");
    const int predicted = ch12::predicted_reads_right(p);
    GRADER_EXPECT(
        predicted == reads_right,
        grader::Feedback("The GPU ran " + code + " (" + ch12::spec::pairing_text(p) +
                         "), and your prediction (" +
                         (predicted == ch12::kNotImplemented ? std::string("not filled in")
                                                             : std::to_string(predicted)) +
                         ") is not what it did.")
            .reveal("wgmma got " + std::to_string(wrong) + " of the 16384 elements of C wrong.")
            .hint("the interface says how a pairing writes and reads the tile; work out where "
                  "wgmma looks for the bytes of rows 0-15 at k16 step 1, and where the tile "
                  "holds them."));
  }
}

WORKBOOK_CHECK(ex2c_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  std::vector<smem::WarpRequest> requests;
  std::vector<int> pitches;
  for (int n = 0; n < ch12::epilogue_pitches_asked(); ++n) {
    pitches.push_back(ch12::epilogue_pitch(n));
    requests.push_back(ch12::spec::epilogue_store(pitches.back()));
  }
  const std::vector<gpu::MeasuredAccess> measured =
      gpu::measure_warp_requests(requests, 8 * ch12::kMaxCTilePitch * 4 * 16);
  for (std::size_t n = 0; n < pitches.size(); ++n) {
    const int counted = measured[n].wavefronts;
    grader::record_measurement(kMeasurementFile,
                               "counted.epilogue.pitch" + std::to_string(pitches[n]), counted,
                               "wavefronts");
    const int predicted = ch12::predicted_epilogue_wavefronts(pitches[n]);
    GRADER_EXPECT(counted == predicted,
                  grader::Feedback("The GPU counted " + grader::more_or_fewer(counted, predicted) +
                                   " wavefronts than you predicted (" + std::to_string(predicted) +
                                   ") for a warp's 8-byte accumulator store at a pitch of " +
                                   std::to_string(pitches[n]) + " floats.")
                      .reveal("It counted " + grader::wavefronts(counted) + ":")
                      .reveal(grader::draw(requests[n])));
  }
}

WORKBOOK_CHECK(ex3_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  const auto problem = ch12::runs::gemm_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_vs_cublas) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not compared", "wgmma_gemm_kernel gives wrong results"));
  }
  constexpr int n = 4096;
  std::mt19937_64 rng(grader::run_seed() + 122);
  const auto p = gemm::random_problem<__half>(gemm::Operands::kABt, n, n, n, rng);
  ch12::probes::forget_waits_that_gave_up();
  const gemm::WithCublas r = gemm::run_with_cublas(
      [](const __half* A, const __half* B, float* C, int M, int N, int K) {
        ch12::probes::launch_yours(OperandLayout::k128B, A, B, C, M, N, K);
      },
      "wgmma_gemm_kernel", ch12::probes::cublas_gemm, p);
  // fp32 accumulation: each result within K 2^-24 of the sum of the products' magnitudes of the
  // exact value (products of halves are exact in fp32); twice that between two results.
  const double unit = n * std::ldexp(1.0, -24);
  double worst = 0;
  if (const auto wrong = gemm::sampled_mismatch(p, r.cublas, {unit}, rng, &worst)) {
    GRADER_FAIL(gemm::cublas_inaccurate(*wrong).hint(
        "is a cuBLAS math mode or environment variable forcing reduced precision?"));
  }
  grader::record_measurement(kMeasurementFile, "cublas.worst_error_in_tolerances", worst, "");
  if (const auto wrong = gemm::disagreement(p, r, {2 * unit})) {
    char line[200];
    std::snprintf(line, sizeof line, "C[%d][%d] is %.9g; cuBLAS gives %.9g (tolerance %.3g).",
                  wrong->i, wrong->j, static_cast<double>(wrong->got),
                  static_cast<double>(r.cublas[static_cast<std::size_t>(wrong->i) * n + wrong->j]),
                  wrong->allowed);
    GRADER_FAIL(grader::Feedback("wgmma_gemm_kernel<k128B> disagrees with cuBLAS on 4096^3.")
                    .line(line)
                    .hint(kPipelineHint));
  }
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not counted", "wgmma_gemm_kernel gives wrong results"));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // One block, eight K-tiles: the epilogue's 8-byte stores (64 per consumer warp) take 2
  // wavefronts each at best (two half-warp groups, stores never merge lane pairs). The TMA's
  // writes and wgmma's reads do not go through these counters.
  std::mt19937_64 rng(grader::run_seed() + 123);
  const auto p = gemm::small_integer_problem<__half>(gemm::Operands::kABt, ch12::kBlockM,
                                                     ch12::kBlockN, 8 * ch12::kKTile, rng);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<std::size_t>(p.M) * p.N);
  const auto launch = [&] {
    ch12::probes::launch_yours(OperandLayout::k128B, a.get(), b.get(), c.get(), p.M, p.N, p.K);
    GPU_CHECK(cudaGetLastError());
  };
  const gpu::SmemCounters got = gpu::measure_smem_counters(launch);
  grader::chapter::show_lines_if_asked([&] { return grader::chapter::lines_of(launch); });
  const double stores = 2.0 * 4 * (ch12::kAccumulators / 2);      // 8 warps x 64 float2 stores
  const double loads = ch12::kBlockM * ch12::kBlockN / 4.0 / 32;  // float4 loads of the tile
  char counted[500];
  std::snprintf(counted, sizeof counted,
                "one block: counted %.0f shared stores taking %.0f wavefronts (%.2f each) and "
                "%.0f shared loads taking %.0f wavefronts (%.2f each); the contract's epilogue "
                "makes %.0f 8-byte stores (2 wavefronts each at best) and %.0f 16-byte loads (4 "
                "each).",
                got.store_instructions, got.store_wavefronts,
                got.store_wavefronts / std::max(1.0, got.store_instructions), got.load_instructions,
                got.load_wavefronts, got.load_wavefronts / std::max(1.0, got.load_instructions),
                stores, loads);
  std::cout << counted << "\n";
  grader::record_measurement(kMeasurementFile, "counted.gemm.store_instructions",
                             got.store_instructions, "");
  grader::record_measurement(kMeasurementFile, "counted.gemm.store_wavefronts",
                             got.store_wavefronts, "wavefronts");
  grader::record_measurement(kMeasurementFile, "counted.gemm.load_instructions",
                             got.load_instructions, "");
  // Not "counted.": the mbarrier waits' polling moves it from run to run (see below).
  grader::record_measurement(kMeasurementFile, "polled.gemm.load_wavefronts", got.load_wavefronts,
                             "wavefronts");
  // The C tile first: with no shared store at all, "no conflict" would hold of nothing.
  if (got.store_instructions != stores) {
    GRADER_FAIL(grader::Feedback("Your epilogue does not stage C through shared memory as the "
                                 "contract says: the GPU counted " +
                                 grader::fixed(got.store_instructions, 0) +
                                 " shared stores where " + grader::fixed(stores, 0) +
                                 " 8-byte stores write the C tile.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("step 3: every consumer thread stores its accumulators into the C tile "
                          "as float2, and the tile goes to C in coalesced 16-byte rows."));
  }
  GRADER_EXPECT(got.store_wavefronts <= 2 * got.store_instructions,
                grader::Feedback("The GPU counted more wavefronts in your epilogue's shared "
                                 "stores than 8-byte stores need: they conflict.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("exercise 2b: at which pitch do the 4 rows a half-warp stores to fall "
                          "in different banks? Store d[reg], d[reg + 1] as one float2."));
  // The loads are shown, not judged: the load wavefront counter also counts the mbarrier
  // waits' polling (on the H200 the reference's 256 conflict-free float4 loads came with 1070
  // wavefronts, and the excess moves with timing), while no other shared store runs.
}

WORKBOOK_CHECK(ex3_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {  // correctness gates speed
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not timed", "wgmma_gemm_kernel gives wrong results"));
  }
  constexpr int n = 4096;
  constexpr std::size_t count = static_cast<std::size_t>(n) * n;
  gpu::DeviceBuffer<__half> a(count), b(count);
  ch12::probes::random_halves(a.get(), n * static_cast<long long>(n), 5);
  ch12::probes::random_halves(b.get(), n * static_cast<long long>(n), 6);
  gpu::DeviceBuffer<float> c(count);
  const double flops = 2.0 * n * n * n;
  std::vector<grader::TimedKernel> kernels = {
      {"cublasGemmEx", [&] { ch12::probes::cublas_gemm(a.get(), b.get(), c.get(), n, n, n); }}};
  const int lt = std::min(4, ch12::probes::lt_algos(n, n, n));
  for (int algo = 0; algo < lt; ++algo) {
    kernels.push_back({"cuBLASLt, heuristic choice " + std::to_string(algo), [&, algo] {
                         ch12::probes::cublaslt_gemm(algo, a.get(), b.get(), c.get(), n, n, n);
                       }});
  }
  const std::size_t baseline_row = kernels.size();
  kernels.push_back({"wmma from global (grader)",
                     [&] { ch12::probes::launch_baseline(a.get(), b.get(), c.get(), n, n, n); }});
  const std::size_t yours_row = kernels.size();
  for (OperandLayout layout : ch12::kOperandLayouts) {
    kernels.push_back({std::string("yours, ") + name(layout), [&, layout] {
                         ch12::probes::launch_yours(layout, a.get(), b.get(), c.get(), n, n, n);
                       }});
  }
  // In turns: the H200 slows as it heats, and this way it slows every kernel alike.
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 21);
  double cublas_ms = rows[0].median_ms;
  for (std::size_t r = 1; r < baseline_row; ++r) cublas_ms = std::min(cublas_ms, rows[r].median_ms);
  const double baseline_ms = rows[baseline_row].median_ms, yours_ms = rows[yours_row].median_ms;
  const double speedup = baseline_ms / yours_ms;
  grader::record_measurement(kMeasurementFile, "gemm.gemmex_tflops",
                             flops / rows[0].median_ms / 1e9, "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.tflops", flops / yours_ms / 1e9, "TFLOP/s");
  const gemm::AgainstCeiling ceiling = gemm::record_speed(kMeasurementFile, "baseline", flops,
                                                          cublas_ms, baseline_ms, yours_ms, true);
  std::string table =
      "GEMM 4096 x 4096 x 4096, fp16 in, fp32 accumulate, median of 21 launches each, in turns "
      "(cuBLAS: the faster of cublasGemmEx and cuBLASLt's heuristic choices):\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    table += gemm::speed_line(rows[r].name, rows[r].median_ms, flops, cublas_ms, 36);
    if (r >= yours_row) {
      const OperandLayout layout = ch12::kOperandLayouts[r - yours_row];
      grader::record_measurement(kMeasurementFile,
                                 std::string("layouts.") + key(layout) + ".fraction_of_cublas",
                                 cublas_ms / rows[r].median_ms, "");
    }
  }
  char last[120];
  std::snprintf(last, sizeof last, "  wgmma_gemm_kernel<k128B> is %.2fx the grader's baseline.\n",
                speedup);
  table += last + ceiling.line;
  std::cout << table;
  const auto verdict = gemm::judge_speedup(
      "wgmma_gemm_kernel<k128B>", "the grader's baseline", speedup,
      grader::chapter::threshold("speedup_over_baseline"), table,
      "keep the next K-tile's wgmma queued behind the current one (wgmma_wait<1>), release each "
      "stage as soon as its wgmma ops are done, and let the producer run ahead by the whole "
      "ring.",
      ceiling.refused);
  GRADER_EXPECT(!verdict, *verdict);
}
