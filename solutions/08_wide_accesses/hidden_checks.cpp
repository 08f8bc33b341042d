// Chapter 08's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The swizzle rule on tiles wider than any local run asks, and the same kernel on
// shapes the hand-out's checks do not try (every size still a multiple of 4, as the contract
// says): a table of the local runs' offsets, or a kernel tuned to the local shapes, loses these
// points.
#include <random>
#include <utility>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/08_wide_accesses/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/transpose_bench.hpp"

WORKBOOK_CHECK(hidden_swizzle_rule) {
  const auto problem = ch08::spec::swizzle_rule_problem({32, 64});
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Past 65535 rows and columns (where an index kept in 16 bits wraps), a large square with
  // tails in both sizes, thin strips, and shapes from a seed of official grading's own.
  std::vector<std::pair<int, int>> shapes = {{70004, 36}, {36, 70004}, {4100, 4092}, {4, 3000},
                                             {3000, 4},   {68, 68},    {124, 60}};
  std::mt19937 rng(grader::hidden_seed(801));
  for (int i = 0; i < 6; ++i) {
    shapes.emplace_back(4 + 4 * static_cast<int>(rng() % 625),
                        4 + 4 * static_cast<int>(rng() % 625));
  }
  const auto problem = transpose::check_correct_on(
      ch08::probes::launch_yours, "wide_transpose_kernel (yours)", grader::hidden_seed(802), shapes,
      transpose::Contract{ch08::kTile, 4});
  GRADER_EXPECT(!problem, *problem);
}
