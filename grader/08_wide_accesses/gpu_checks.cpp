// Chapter 08 GPU checks: correctness (tails included), the counters against your predictions, and
// speed against the device copy.
#include <string>
#include <utility>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/08_wide_accesses/device_probes.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;
const char* const kKernel = "wide_transpose_kernel (yours)";
// 64 x 64 tiles; float4 rows need both sizes to be multiples of 4.
const transpose::Contract kContract{ch08::kTile, 4};
}  // namespace

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch08::probes::launch_yours, kKernel, grader::run_seed(), kContract);
  if (problem) GRADER_FAIL(*problem);
  // A transpose straight from global memory (the grader's naive baseline, say) is correct too;
  // the exercise is the one through the tile.
  const auto unstaged = transpose::tile_not_staged(
      ch08::probes::launch_yours, "wide_transpose_kernel", kMeasurementFile, kContract);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_tile_counters(
      ch08::probes::launch_yours, ch08::kTile, ch08::predicted_tile_store_wavefronts(),
      ch08::predicted_tile_load_wavefronts(), kMeasurementFile, "exercise 2",
      "every shared access of the contract is one float4 through "
      "tile_chunk_offset; scalar accesses, or accesses past the layout, "
      "count differently.");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  // Your variant's padded load and float2 store, each one warp's request under the counters.
  const ch08::spec::Exercise3Case c = ch08::spec::exercise3_case(grader::variant::current());
  const std::vector<smem::WarpRequest> requests = {ch08::spec::padded_load(c),
                                                   ch08::spec::pairs_store(c)};
  const std::vector<gpu::MeasuredAccess> measured =
      gpu::measure_warp_requests(requests, 64 * ch08::spec::kMostPaddedPitch * 4);
  const std::pair<const char*, int> asked[] = {
      {"predicted_padded_load_wavefronts(pitch_floats, load_bytes)",
       ch08::predicted_padded_load_wavefronts(c.padded_pitch, c.padded_bytes)},
      {"predicted_float2_pairs_store_wavefronts(stride)",
       ch08::predicted_float2_pairs_store_wavefronts(c.pairs_stride)}};
  const std::string texts[] = {ch08::spec::padded_text(c), ch08::spec::pairs_text(c)};
  for (std::size_t n = 0; n < requests.size(); ++n) {
    const int counted = measured[n].wavefronts;
    GRADER_EXPECT(
        counted == asked[n].second,
        grader::Feedback("The GPU counted " + grader::more_or_fewer(counted, asked[n].second) +
                         " wavefronts than " + asked[n].first + " predicts (" +
                         std::to_string(asked[n].second) + ") for your variant's " + texts[n] + ".")
            .reveal("It counted " + grader::wavefronts(counted) + ":")
            .reveal(grader::draw(requests[n])));
  }
  // The predictions are of the kernel's own layout: compared once that layout is right.
  if (!ch08::spec::layout_is_right()) {
    GRADER_FAIL(grader::Feedback("Not compared: your predictions of the tile store and load are "
                                 "checked once tile_chunk_offset is right (exercise 1).")
                    .hint("make exercise 1's host check pass first."));
  }
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch08::probes::launch_yours, kKernel, "float4, 64 x 64 tile (yours)", kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "the host checks show whether a tile access conflicts; then check that every global "
      "access is one float4 and that the four loads of a thread are issued before its stores.",
      kContract);
  GRADER_EXPECT(!problem, *problem);
}
