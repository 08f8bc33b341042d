// Chapter 07 GPU checks: the swizzled transpose uses exactly the unpadded tile, is correct and
// close to the copy bandwidth.
#include <string>

#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"
#include "grader/07_swizzled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "swizzled_transpose_kernel (yours)";
}

WORKBOOK_CHECK(ex2_tile) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const cudaFuncAttributes a = ch07::probes::attributes();
  GRADER_EXPECT(
      a.sharedSizeBytes == 32 * 32 * sizeof(float),
      grader::Feedback("swizzled_transpose_kernel uses " + std::to_string(a.sharedSizeBytes) +
                       " bytes of static shared memory; the swizzled tile is exactly "
                       "32 x 32 x 4 = 4096.")
          .hint("a swizzle costs no memory: declare __shared__ float tile[kTileWords] "
                "and nothing else."));
}

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch07::probes::launch_yours, kKernel, grader::run_seed());
  if (problem) GRADER_FAIL(*problem);
  // A transpose straight from global memory (the grader's naive baseline, say) is correct too;
  // the exercise is the one through the tile.
  const auto unstaged = transpose::tile_not_staged(
      ch07::probes::launch_yours, "swizzled_transpose_kernel", grader::chapter::kMeasurementFile);
  GRADER_EXPECT(!unstaged, *unstaged);
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch07::probes::launch_yours, kKernel, "swizzled tile[32][32] (yours)",
      grader::chapter::kMeasurementFile, grader::chapter::threshold("speedup_over_naive"),
      "the host check of swizzled_tile_index shows any access that still conflicts.");
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_layout_counters(
      ch07::probes::launch_yours, ch07::kTile, ch07::swizzled_tile_index, "swizzled_tile_index",
      grader::chapter::kMeasurementFile, "exercise 2");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}
