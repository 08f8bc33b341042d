// Chapter @NN@ GPU checks: correctness, the counters against the layout's promise, and speed
// against the naive transpose measured in the same run.
#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"
#include "grader/@NN@_@SLUG@/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "transpose_kernel (yours)";
}  // namespace

WORKBOOK_CHECK(ex3_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch@NN@::probes::launch_yours, kKernel, grader::run_seed());
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_layout_counters(
      ch@NN@::probes::launch_yours, ch@NN@::kTile, ch@NN@::tile_index, "tile_index",
      grader::chapter::kMeasurementFile, "exercise 3");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}

WORKBOOK_CHECK(ex3_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch@NN@::probes::launch_yours, kKernel, "transpose (yours)", grader::chapter::kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "both global accesses must be coalesced, and the tile conflict-free.");
  GRADER_EXPECT(!problem, *problem);
}
