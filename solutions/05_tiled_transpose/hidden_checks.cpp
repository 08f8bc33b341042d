// Chapter 05's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. tiled_transpose_kernel on shapes the hand-out's checks do not try (one side a
// multiple of the tile and the other not, thin and very wide matrices) and a seed of official
// grading's own: a kernel tuned to the local shapes loses these points.
#include <utility>
#include <vector>

#include "grader/05_tiled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/transpose_bench.hpp"

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const std::vector<std::pair<int, int>> shapes = {{64, 45},   {45, 64},   {32, 33},  {33, 32},
                                                   {2, 70000}, {70000, 2}, {5, 3000}, {3000, 5},
                                                   {127, 129}, {2065, 31}, {1, 2},    {2, 1}};
  const auto problem =
      transpose::check_correct_on(ch05::probes::launch_yours, "tiled_transpose_kernel (yours)",
                                  grader::hidden_seed(501), shapes);
  GRADER_EXPECT(!problem, *problem);
}
