// Chapter 07 host checks: the swizzle rule and the tile layout, against the bank model.
#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/transpose/tile_layout_check.hpp"

WORKBOOK_CHECK(ex1) {
  // The rule at the widths a local run asks, widest first (the lesson works 16; official grading
  // asks wider), then the kernel's tile.
  if (auto problem =
          transpose::layout_rule_problem("swizzled_word", ch07::swizzled_word, {32, 8, 4, 2})) {
    GRADER_FAIL(*problem);
  }
  const auto problem = transpose::check_tile_layout("swizzled_tile_index",
                                                    ch07::swizzled_tile_index, ch07::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}
