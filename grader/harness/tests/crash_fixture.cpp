// A grader whose first GPU check crashes the GPU: the self-test around it checks that the crash
// is reported once, clearly, and that the later GPU checks are not run as a cascade of failures.
#include "common/cuda/tests/test_kernels.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("1: a kernel that writes through a null pointer", "[gpu][crash_fixture]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  test_kernels::launch_crashing_kernel();
}

TEST_CASE("2: a check that would need the GPU afterwards", "[gpu][crash_fixture]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  FAIL("this check ran after the context was lost");
}
