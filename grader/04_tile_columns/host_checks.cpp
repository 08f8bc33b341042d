// Chapter 04 host checks: padded_pitch against the bank model, for every element size at the
// variant's widths (self-study: 1 to 256): conflict-free, and no smaller pitch is.
#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_check.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("ch04 exercise 1: padded_pitch is conflict-free and minimal", "[host][variant]") {
  const auto problem = ch04::spec::pitch_problem(ch04::spec::graded_pitches());
  GRADER_EXPECT(!problem, *problem);
}
