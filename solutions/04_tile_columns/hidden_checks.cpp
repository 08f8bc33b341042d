// Chapter 04's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. padded_pitch on the widths of its contract the hand-out's checks do not try, and
// block_column_sums_kernel on other shapes and a seed of official grading's own: a pitch table
// or a kernel tuned to the local cases loses these points.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/column_sums_check.hpp"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"

WORKBOOK_CHECK(hidden_padded_pitch) {
  const auto problem = ch04::spec::pitch_problem(ch04::spec::kLocalWidths + 1, 1024);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_column_sums) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto fault = ch04::spec::kernel_pitch_fault()) {
    GRADER_FAIL(grader::Feedback("Not run: " + *fault + "."));
  }
  std::mt19937 rng(grader::hidden_seed(401));
  const int rows = 300 + static_cast<int>(rng() % 200), cols = 500 + static_cast<int>(rng() % 300);
  const auto problem = ch04::checks::column_sums_problem({{1000, 1},
                                                          {1, 1000},
                                                          {33, 31},
                                                          {32, 64},
                                                          {96, 32},
                                                          {65, 32},
                                                          {5, 3000},
                                                          {3000, 5},
                                                          {257, 129},
                                                          {rows, cols}},
                                                         grader::hidden_seed(402));
  GRADER_EXPECT(!problem, *problem);
}
