// Chapter 09's hidden case of exercise 1 (official grading's; a hand-out has no solutions/):
// hidden_checks.cpp asks it, lesson_checks.cpp holds it apart from the lesson's worked case.
#pragma once

#include <vector>

#include "grader/09_tiled_gemm/classic_cases.hpp"
#include "grader/harness/variant.hpp"

namespace ch09::hidden {

// The tile official grading asks: at self-study TILE = 4, a block of 16 threads, one warp with
// lanes 16-31 idle (TILE = 32, the other power of two of the contract, is the lesson's worked
// case). A class variant: a tile of the contract its local checks do not ask, drawn apart from
// them (the hand-out cannot know it), at a column k of its own.
inline ch09::spec::GradedTile hidden_tile(const grader::variant::Identity& v) {
  if (v.self_study()) return {4, 1};  // k = 5 % 4, as the check always asked
  std::vector<int> others;
  const std::vector<ch09::spec::GradedTile> local = ch09::spec::graded_tiles(v);
  for (int tile = 4; tile <= 31; ++tile) {
    bool asked = false;
    for (const ch09::spec::GradedTile& t : local) asked = asked || t.tile == tile;
    if (!asked) others.push_back(tile);
  }
  grader::variant::Draw d(v, "ch09 hidden");
  const int tile = d.pick(others);
  return {tile, d.between(0, tile - 1)};
}

}  // namespace ch09::hidden
