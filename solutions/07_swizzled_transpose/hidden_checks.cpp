// Chapter 07's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The swizzle rule on tiles wider than any local run asks, and the same kernel on
// shapes the hand-out's checks do not try: a table of the local runs' words, or a kernel tuned to
// the local shapes, loses these points.
#include <random>
#include <utility>
#include <vector>

#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"
#include "grader/07_swizzled_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_layout_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

WORKBOOK_CHECK(hidden_swizzle_rule) {
  const auto problem =
      transpose::layout_rule_problem("swizzled_word", ch07::swizzled_word, {64, 128, 256});
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Past 65535 rows and columns (where an index kept in 16 bits wraps), a large square with
  // tails in both sizes, thin strips, and shapes from a seed of official grading's own.
  std::vector<std::pair<int, int>> shapes = {{70001, 40}, {40, 70001}, {4097, 4099}, {3, 2999},
                                             {2999, 3},   {47, 47},    {95, 63}};
  std::mt19937 rng(grader::hidden_seed(701));
  for (int i = 0; i < 6; ++i) {
    shapes.emplace_back(1 + static_cast<int>(rng() % 2500), 1 + static_cast<int>(rng() % 2500));
  }
  const auto problem =
      transpose::check_correct_on(ch07::probes::launch_yours, "swizzled_transpose_kernel (yours)",
                                  grader::hidden_seed(702), shapes);
  GRADER_EXPECT(!problem, *problem);
}
