// Chapter @NN@'s hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same kernel on shapes the hand-out's checks do not try: a kernel tuned to the
// local shapes loses these points.
#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"
#include "grader/@NN@_@SLUG@/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/transpose/transpose_bench.hpp"

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::check_correct_on(
      ch@NN@::probes::launch_yours, "transpose_kernel (yours)", 0x5eed99u,
      {{2, 3}, {33, 1}, {127, 129}, {257, 31}, {1, 1023}, {2049, 67}});
  GRADER_EXPECT(!problem, *problem);
}
