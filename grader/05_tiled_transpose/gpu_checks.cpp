// Chapter 05 GPU checks: correctness, the counters against your predictions, and speed against
// the naive transpose.
#include <cstddef>
#include <string>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/model/bank_model.hpp"
#include "grader/05_tiled_transpose/device_probes.hpp"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/variant.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;
const char* const kKernel = "tiled_transpose_kernel (yours)";
}  // namespace

WORKBOOK_CHECK(ex1_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch05::probes::launch_yours, kKernel, grader::run_seed());
  if (problem) GRADER_FAIL(*problem);
  // A transpose straight from global memory (the grader's naive baseline, say) is correct too;
  // the exercise is the one through the tile.
  const auto unstaged = transpose::tile_not_staged(ch05::probes::launch_yours,
                                                   "tiled_transpose_kernel", kMeasurementFile);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const grader::variant::Identity& v = grader::variant::current();
  const ch05::TileCase c = ch05::spec::tile_case(v);
  // Your kernel's tile under the counters. At variant 0 your predictions are about it; another
  // variant's are about another tile, and the kernel's accesses must cost what the contract's
  // float tile[32][32] does (the bank model's count of its row store and column load).
  const bool kernel_is_the_case = v.self_study();
  const ch05::TileCase kernel = ch05::spec::kernel_tile();
  const int kernel_store = kernel_is_the_case
                               ? ch05::predicted_tile_store_wavefronts(kernel)
                               : smem::analyze(ch05::spec::tile_row_store(kernel)).wavefronts;
  const int kernel_load = kernel_is_the_case
                              ? ch05::predicted_tile_load_wavefronts(kernel)
                              : smem::analyze(ch05::spec::tile_column_load(kernel)).wavefronts;
  const transpose::CounterVerdict verdict = transpose::judge_tile_counters(
      ch05::probes::launch_yours, ch05::kTile, kernel_store, kernel_load, kMeasurementFile,
      "exercise 1",
      kernel_is_the_case ? "if your predictions match the host checks, your kernel accesses the "
                           "tile differently from the contract."
                         : "your kernel accesses its tile differently from the contract: a warp "
                           "stores tile[y + 8 j][x] and loads tile[x][y + 8 j].",
      kernel_is_the_case ? transpose::Expected::kPredicted : transpose::Expected::kLayoutPromise,
      "the contract's float tile[32][32]");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
  if (kernel_is_the_case) return;
  // Your variant's tile: its row store and its column load, one warp each, under the counters.
  const std::vector<smem::WarpRequest> requests = {ch05::spec::tile_row_store(c),
                                                   ch05::spec::tile_column_load(c)};
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  const struct {
    const char* function;
    int predicted;
    std::string access;
    const char* quantity;
  } asked[] = {{"predicted_tile_store_wavefronts(c)", ch05::predicted_tile_store_wavefronts(c),
                ch05::spec::store_text(c), "counted.variant_store_wavefronts"},
               {"predicted_tile_load_wavefronts(c)", ch05::predicted_tile_load_wavefronts(c),
                ch05::spec::load_text(c), "counted.variant_load_wavefronts"}};
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const int counted = measured[i].wavefronts;
    const int predicted = asked[i].predicted;
    grader::record_measurement(kMeasurementFile, asked[i].quantity, counted, "wavefronts");
    GRADER_EXPECT(
        counted == predicted,
        predicted == ch05::kNotImplemented
            ? grader::prediction_not_done(asked[i].function, "exercise 2")
            : grader::Feedback("The GPU counted " + grader::more_or_fewer(counted, predicted) +
                               " wavefronts for " + asked[i].access + " than " + asked[i].function +
                               " predicts (" + std::to_string(predicted) + ").")
                  .hint("count distinct 4-byte words per bank, per group of lanes: a warp of "
                        "2- or 4-byte accesses is one group, of 16-byte ones four groups of 8 "
                        "lanes (chapter 03).")
                  .reveal("The GPU counted " + grader::wavefronts(counted) + ":")
                  .reveal(grader::draw(requests[i])));
  }
}

WORKBOOK_CHECK(ex1_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch05::probes::launch_yours, kKernel, "tiled, tile[32][32] (yours)", kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "both global accesses must be coalesced: consecutive threads (x) read consecutive columns "
      "of `in` and write consecutive columns of `out`.");
  GRADER_EXPECT(!problem, *problem);
}
