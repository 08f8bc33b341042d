// Chapter 06's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The padding rule on tiles wider than any local run asks, and the same kernel on
// shapes the hand-out's checks do not try: a table of the local runs' pitches, or a kernel tuned
// to the local shapes, loses these points.
#include <random>
#include <utility>
#include <vector>

#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/06_padded_transpose/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/tile_layout_check.hpp"
#include "grader/transpose/transpose_bench.hpp"

WORKBOOK_CHECK(hidden_padding_rule) {
  std::mt19937 rng(grader::hidden_seed(603));
  std::vector<std::pair<int, int>> cases;
  const auto wider = [&] {
    const int more = 1024 - transpose::kPaddingColumnsAskedLocally;
    return transpose::kPaddingColumnsAskedLocally + 1 + static_cast<int>(rng() % more);
  };
  for (const int bytes : {2, 4, 8, 16, 2, 4, 8, 16}) cases.push_back({wider(), bytes});
  int halves = 0;  // and a tile of halves whose column 0 alone would mislead
  do halves = wider();
  while (!transpose::column_0_misleads(halves));
  cases.push_back({halves, 2});
  const auto problem = transpose::padding_rule_problem(ch06::padded_pitch, cases, false);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Past 65535 rows and columns (where an index kept in 16 bits wraps), a large square with
  // tails in both sizes, thin strips, and shapes from a seed of official grading's own.
  std::vector<std::pair<int, int>> shapes = {{70001, 40}, {40, 70001}, {4099, 4097}, {2, 3001},
                                             {3001, 2},   {17, 17},    {63, 95}};
  std::mt19937 rng(grader::hidden_seed(601));
  for (int i = 0; i < 6; ++i) {
    shapes.emplace_back(1 + static_cast<int>(rng() % 2500), 1 + static_cast<int>(rng() % 2500));
  }
  const auto problem =
      transpose::check_correct_on(ch06::probes::launch_yours, "padded_transpose_kernel (yours)",
                                  grader::hidden_seed(602), shapes);
  GRADER_EXPECT(!problem, *problem);
}
