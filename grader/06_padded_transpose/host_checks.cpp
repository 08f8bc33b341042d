// Chapter 06 host checks: the padding rule and the tile layout, against the bank model.
#include <utility>
#include <vector>

#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/variant.hpp"
#include "grader/transpose/tile_layout_check.hpp"

WORKBOOK_CHECK(ex1) {
  // The rule: the kernel's tile, then fresh tiles each run draws, so that a rule passes and a
  // number does not (official grading's hidden check asks wider tiles).
  std::vector<std::pair<int, int>> cases = {{ch06::kTile, 4}};
  grader::variant::Draw d = grader::variant::fresh_draw("ch06");
  // Halves twice as often: theirs is the rule that "the next odd pitch" does not give.
  for (const int bytes : {2, 4, 8, 16, 2, 4, 8, 16, 2}) {
    cases.push_back({d.between(1, transpose::kPaddingColumnsAskedLocally), bytes});
  }
  int halves = 0;  // and a tile of halves whose column 0 alone would mislead
  do halves = d.between(1, transpose::kPaddingColumnsAskedLocally);
  while (!transpose::column_0_misleads(halves));
  cases.push_back({halves, 2});
  if (auto problem = transpose::padding_rule_problem(ch06::padded_pitch, cases, true)) {
    GRADER_FAIL(*problem);
  }
  // The kernel's layout.
  const auto problem =
      transpose::check_tile_layout("padded_tile_index", ch06::padded_tile_index, ch06::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}
