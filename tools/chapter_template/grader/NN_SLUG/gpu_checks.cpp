// Chapter @NN@ GPU checks: correctness, the counters against the layout's promise, and speed
// against the naive transpose measured in the same run.
#include <string>

#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"
#include "grader/@NN@_@SLUG@/device_probes.hpp"
#include "grader/@NN@_@SLUG@/thresholds.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "transpose_kernel (yours)";
}  // namespace

TEST_CASE("ch@NN@ exercise 3: transpose_kernel is correct, tails included", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch@NN@::probes::launch_yours, kKernel, grader::run_seed());
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch@NN@ exercise 3: the counters see a conflict-free tile", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // A conflict-free layout promises one wavefront per tile store and per tile load.
  const transpose::CounterVerdict verdict = transpose::judge_tile_counters(
      ch@NN@::probes::launch_yours, ch@NN@::kTile, 1, 1, grader::chapter::kMeasurementFile,
      "exercise 3", "the kernel must address the tile through tile_index(), as the contract says.");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}

TEST_CASE("ch@NN@ exercise 3: the transpose beats the naive one", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (transpose::check_correct(ch@NN@::probes::launch_yours, kKernel, 1)) {
    GRADER_FAIL(grader::Feedback("Not timed: the kernel is not correct yet (see above)."));
  }
  const transpose::Times t = transpose::time_transpose(ch@NN@::probes::launch_yours, kKernel);
  const std::string table =
      transpose::report(t, "transpose (yours)", grader::chapter::kMeasurementFile);
  const double speedup = t.naive_ms / t.yours_ms;
  const grader::Threshold& need = grader::chapter::threshold("speedup_over_naive");
  GRADER_EXPECT(grader::passes(need, speedup),
                grader::Feedback("Your transpose is " + grader::fixed(speedup) +
                                 "x as fast as the naive one; it must reach " +
                                 grader::fixed(need.value) + "x.")
                    .picture(table)
                    .hint("both global accesses must be coalesced, and the tile conflict-free."));
}
