// Chapter 04 host checks: padded_pitch against the bank model, for every element size at the
// variant's widths (self-study: 1 to 256) and at fresh ones: conflict-free, and no smaller pitch
// is.
#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"

#include <vector>

WORKBOOK_CHECK(ex1) {
  std::vector<ch04::spec::PitchCase> cases = ch04::spec::graded_pitches();
  for (const auto& c : ch04::spec::fresh_pitches()) cases.push_back(c);
  const auto problem = ch04::spec::pitch_problem(cases);
  GRADER_EXPECT(!problem, *problem);
}
