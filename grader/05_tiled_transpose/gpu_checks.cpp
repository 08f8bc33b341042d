// Chapter 05 GPU checks: correctness, the counters against your predictions, and speed against
// the naive transpose.
#include <string>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "grader/05_tiled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;
const char* const kKernel = "tiled_transpose_kernel (yours)";
}  // namespace

TEST_CASE("ch05 exercise 1: tiled_transpose_kernel is correct, tails included", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch05::probes::launch_yours, kKernel, grader::run_seed());
  if (problem) GRADER_FAIL(*problem);
  // A transpose straight from global memory (the grader's naive baseline, say) is correct too;
  // exercise 1 is the one through the tile.
  const auto unstaged = transpose::tile_not_staged(
      "tiled_transpose_kernel", ch05::probes::static_shared_bytes_of_yours(),
      ch05::kTile * ch05::kTile * static_cast<int>(sizeof(float)), "__shared__ float tile[32][32]");
  GRADER_EXPECT(!unstaged, *unstaged);
}

TEST_CASE("ch05 exercise 2 on the GPU: counters agree with your predictions", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_tile_counters(
      ch05::probes::launch_yours, ch05::kTile, ch05::predicted_tile_store_wavefronts(),
      ch05::predicted_tile_load_wavefronts(), kMeasurementFile, "exercise 1",
      "if your predictions match the host checks, your kernel accesses the "
      "tile differently from the contract.");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}

TEST_CASE("ch05 exercise 1: the tiled transpose beats the naive one", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch05::probes::launch_yours, kKernel, "tiled, tile[32][32] (yours)", kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "both global accesses must be coalesced: consecutive threads (x) read consecutive columns "
      "of `in` and write consecutive columns of `out`.");
  GRADER_EXPECT(!problem, *problem);
}
