// Chapter 06 host checks: the padding rule and the tile layout, against the bank model.
#include <string>
#include <utility>
#include <vector>

#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/variant.hpp"
#include "grader/transpose/tile_layout_check.hpp"

namespace {

// A warp loading one column of 32 rows `pitch` elements of `bytes` apart (lane r reads row r).
smem::WarpRequest column_load(int pitch, int bytes) {
  return smem::WarpRequest::from_lanes(
      bytes, smem::Op::kLoad, [=](int r) { return static_cast<long long>(bytes) * r * pitch; });
}

// The fewest wavefronts a warp of `bytes`-byte loads can take: one per 128 bytes.
int fewest(int bytes) {
  return bytes <= 4 ? 1 : bytes / 4;
}

const char* type_of(int bytes) {
  return bytes == 2 ? "halves" : bytes == 4 ? "floats" : bytes == 8 ? "doubles" : "float4s";
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  // The rule: the kernel's tile, then fresh tiles each run draws (official grading's from its
  // own seed), so that a rule passes and a number does not.
  std::vector<std::pair<int, int>> cases = {{ch06::kTile, 4}};
  grader::variant::Draw d = grader::variant::fresh_draw("ch06");
  // Halves twice as often: theirs is the rule that "the next odd pitch" does not give.
  for (const int bytes : {2, 4, 8, 16, 2, 4, 8, 16, 2, 2}) {
    cases.push_back({d.between(1, 128), bytes});
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto [columns, bytes] = cases[i];
    const int yours = ch06::padded_pitch(columns, bytes);
    int right = columns;  // the bank model's: the first pitch from `columns` up at the fewest
    while (smem::analyze(column_load(right, bytes)).wavefronts > fewest(bytes)) ++right;
    if (yours == right) continue;
    const std::string call =
        "padded_pitch(" + std::to_string(columns) + ", " + std::to_string(bytes) + ")";
    const std::string which = i == 0 ? "the kernel's tile"
                                     : "a fresh tile (right on the " + std::to_string(i) +
                                           (i == 1 ? " tile" : " tiles") + " before it)";
    grader::Feedback f(call + " returned " + std::to_string(yours) + ", on " + which + ".");
    if (yours < columns) {
      f.line("A row of " + std::to_string(columns) + " " + type_of(bytes) +
             " needs a pitch of at least " + std::to_string(columns) + ".");
    } else {
      const smem::WarpRequest load = column_load(yours, bytes);
      const int cost = smem::analyze(load).wavefronts;
      f.line(cost > fewest(bytes)
                 ? "At that pitch a warp reading a column of 32 rows of " +
                       std::string(type_of(bytes)) + " takes " + grader::wavefronts(cost) + "; " +
                       std::to_string(fewest(bytes)) + " is the fewest it can."
                 : "That pitch reads a column in the fewest wavefronts, but a smaller one, at "
                   "least " +
                       std::to_string(columns) + ", does too.");
      if (cost > fewest(bytes)) f.picture(grader::draw(load));
    }
    GRADER_FAIL(f.hint("a column read costs what chapter 05's rule says for its pitch; find "
                       "the first pitch from `columns` up at which that cost is the fewest.")
                    .reveal("The bank model's pitch: " + std::to_string(right) + "."));
  }
  // The kernel's layout.
  const auto problem =
      transpose::check_tile_layout("padded_tile_index", ch06::padded_tile_index, ch06::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}
