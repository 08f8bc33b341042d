// Chapter 06 GPU checks: the padded transpose is correct and close to the copy bandwidth.
#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/06_padded_transpose/device_probes.hpp"
#include "grader/06_padded_transpose/thresholds.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
const char* const kKernel = "padded_transpose_kernel (yours)";
}

TEST_CASE("ch06 exercise 2: padded_transpose_kernel is correct, tails included", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch06::probes::launch_yours, kKernel, grader::run_seed());
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch06 exercise 2: the padded transpose runs near copy speed", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_fraction_of_copy(
      ch06::probes::launch_yours, kKernel, "padded tile[32][33] (yours)",
      grader::chapter::kMeasurementFile, grader::chapter::threshold("fraction_of_copy"),
      "the host check of padded_tile_index shows any access that still conflicts; chapter 05's "
      "unpadded tile reaches only about 0.4 of copy.");
  GRADER_EXPECT(!problem, *problem);
}
