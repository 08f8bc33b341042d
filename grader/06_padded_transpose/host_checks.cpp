// Chapter 06 host checks: the tile layout, against the bank model.
#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/transpose/tile_layout_check.hpp"

WORKBOOK_CHECK(ex1) {
  const auto problem =
      transpose::check_tile_layout("padded_tile_index", ch06::padded_tile_index, ch06::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}
