// Chapter 07 GPU checks: the swizzled transpose uses exactly the unpadded tile, is correct and
// close to the copy bandwidth.
#include <cstdio>
#include <string>
#include <utility>

#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"
#include "grader/07_swizzled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_counters_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "swizzled_transpose_kernel (yours)";
}

TEST_CASE("ch07 exercise 2: the kernel's shared memory is exactly the 32 x 32 tile", "[gpu]") {
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

TEST_CASE("ch07 exercise 2: swizzled_transpose_kernel is correct, tails included", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch07::probes::launch_yours, kKernel, grader::run_seed());
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch07 exercise 2: the swizzled transpose beats the naive one by far", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_speedup_over_naive(
      ch07::probes::launch_yours, kKernel, "swizzled tile[32][32] (yours)",
      grader::chapter::kMeasurementFile, grader::chapter::threshold("speedup_over_naive"),
      "the host check of swizzled_tile_index shows any access that still conflicts.");
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch07 exercise 2: the counters see what swizzled_tile_index promises", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const transpose::CounterVerdict verdict = transpose::judge_layout_counters(
      ch07::probes::launch_yours, ch07::kTile, ch07::swizzled_tile_index, "swizzled_tile_index",
      grader::chapter::kMeasurementFile, "exercise 2");
  if (verdict.skipped) GRADER_SKIP(*verdict.skipped);
  GRADER_EXPECT(!verdict.problem, *verdict.problem);
}

TEST_CASE("ch07 the lesson's experiment: does an XOR per access cost the swizzle its speed?",
          "[gpu]") {
  // Not a check of your code: the grader's own padded kernel, plainly and with a run-time-zero
  // XOR in every shared access, timed with yours in this run. The lesson quotes the H200's
  // numbers. It fails only if one of the grader's two kernels is wrong.
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  for (const auto& [launch, name] :
       {std::pair<transpose::Launch, const char*>{ch07::probes::launch_padded, "padded (grader)"},
        {ch07::probes::launch_padded_with_xor, "padded with a zero XOR (grader)"}}) {
    const auto problem = transpose::check_correct(launch, name, grader::run_seed());
    GRADER_EXPECT(!problem, *problem);
  }
  const transpose::Times padded = transpose::time_transpose(ch07::probes::launch_padded, "padded");
  const transpose::Times with_xor =
      transpose::time_transpose(ch07::probes::launch_padded_with_xor, "padded with a zero XOR");
  const transpose::Times yours = transpose::time_transpose(ch07::probes::launch_yours, kKernel);
  const std::string& file = grader::chapter::kMeasurementFile;
  grader::record_measurement(file, "xor_experiment.padded_fraction_of_copy",
                             padded.fraction_of_copy(), "");
  grader::record_measurement(file, "xor_experiment.padded_with_xor_fraction_of_copy",
                             with_xor.fraction_of_copy(), "");
  grader::record_measurement(file, "xor_experiment.swizzled_fraction_of_copy",
                             yours.fraction_of_copy(), "");
  std::printf(
      "What an XOR per shared access costs (fraction of the device copy, this run):\n"
      "  padded tile (grader)                    %.3f\n"
      "  padded tile, zero XOR per access        %.3f\n"
      "  your swizzled tile                      %.3f\n",
      padded.fraction_of_copy(), with_xor.fraction_of_copy(), yours.fraction_of_copy());
  SUCCEED();
}
