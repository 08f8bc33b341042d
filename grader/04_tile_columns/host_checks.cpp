// Chapter 04 host checks: padded_pitch against the bank model, for every element size at the
// variant's widths (self-study: 1 to 256): conflict-free, and no smaller pitch is.
#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_check.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"

WORKBOOK_CHECK(ex1) {
  const auto problem = ch04::spec::pitch_problem(ch04::spec::graded_pitches());
  GRADER_EXPECT(!problem, *problem);
}
