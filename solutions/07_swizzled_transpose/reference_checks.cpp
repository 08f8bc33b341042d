// Chapter 07, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// lesson's experiment, on the reference and its ablations ([ablation.NAME] of chapter.ini).
#include <cstdio>
#include <string>
#include <utility>

#include "grader/07_swizzled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/transpose_bench.hpp"

// The ablations' launchers: the reference with chapter 06's padded tile, plainly and with a
// run-time-zero XOR in every shared index.
namespace ch07_padded::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}
namespace ch07_padded_with_xor::probes {
void launch_yours(const float* in, float* out, int rows, int cols);
}

TEST_CASE("ch07 reference: does an XOR per access cost the swizzle its speed?", "[reference]") {
  // The lesson's experiment: the padded ablations, plainly and with a run-time-zero XOR in every
  // shared access, timed with the reference's swizzled kernel in this run. The lesson quotes the
  // H200's numbers. It fails only if one of the three kernels is wrong.
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  for (const auto& [launch, name] :
       {std::pair<transpose::Launch, const char*>{ch07_padded::probes::launch_yours,
                                                  "padded (grader)"},
        {ch07_padded_with_xor::probes::launch_yours, "padded with a zero XOR (grader)"}}) {
    const auto problem = transpose::check_correct(launch, name, grader::run_seed());
    GRADER_EXPECT(!problem, *problem);
  }
  const transpose::Times padded =
      transpose::time_transpose(ch07_padded::probes::launch_yours, "padded");
  const transpose::Times with_xor = transpose::time_transpose(
      ch07_padded_with_xor::probes::launch_yours, "padded with a zero XOR");
  const transpose::Times swizzled =
      transpose::time_transpose(ch07::probes::launch_yours, "swizzled (reference)");
  const std::string& file = grader::chapter::kMeasurementFile;
  grader::record_measurement(file, "xor_experiment.padded_fraction_of_copy",
                             padded.fraction_of_copy(), "");
  grader::record_measurement(file, "xor_experiment.padded_with_xor_fraction_of_copy",
                             with_xor.fraction_of_copy(), "");
  grader::record_measurement(file, "xor_experiment.swizzled_fraction_of_copy",
                             swizzled.fraction_of_copy(), "");
  std::printf(
      "What an XOR per shared access costs (fraction of the device copy, this run):\n"
      "  padded tile (grader)                    %.3f\n"
      "  padded tile, zero XOR per access        %.3f\n"
      "  swizzled tile (reference)               %.3f\n",
      padded.fraction_of_copy(), with_xor.fraction_of_copy(), swizzled.fraction_of_copy());
  SUCCEED();
}
