// Chapter 06 GPU checks: the padded transpose is correct and close to the copy bandwidth.
#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/06_padded_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "padded_transpose_kernel (yours)";
}

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch06::probes::launch_yours, kKernel, grader::run_seed());
  if (problem) GRADER_FAIL(*problem);
  // A transpose straight from global memory (the grader's naive baseline, say) is correct too;
  // the exercise is the one through the tile.
  const auto unstaged = transpose::tile_not_staged(
      ch06::probes::launch_yours, "padded_transpose_kernel", grader::chapter::kMeasurementFile);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch06::probes::launch_yours, kKernel, "padded tile (yours)", grader::chapter::kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "the host check of padded_tile_index shows any access that still conflicts; chapter 05's "
      "unpadded tile is only about 3 times as fast as the naive transpose.");
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_layout_counters(
      ch06::probes::launch_yours, ch06::kTile, ch06::padded_tile_index, "padded_tile_index",
      grader::chapter::kMeasurementFile, "exercise 2");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}
