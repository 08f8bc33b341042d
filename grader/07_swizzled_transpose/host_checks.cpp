// Chapter 07 host checks: the tile layout, against the bank model.
#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/transpose/tile_layout_check.hpp"

WORKBOOK_CHECK(ex1) {
  const auto problem = transpose::check_tile_layout("swizzled_tile_index",
                                                    ch07::swizzled_tile_index, ch07::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}
