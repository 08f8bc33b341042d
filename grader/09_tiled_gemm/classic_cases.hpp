// Chapter 09: which tiles exercise 1 grades for a variant. Self-study grades the workbook's own
// TILE = 16 and TILE = 8; a class variant grades four tiles of its own (any TILE of the
// contract, 4 to 31: TILE = 32 is the lesson's worked case), each at an inner-loop column k of
// its own.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "grader/harness/variant.hpp"

namespace ch09::spec {

/// One tile exercise 1 asks about, and the column k of the inner loop its accesses are taken at.
struct GradedTile {
  int tile;
  int k;
};

/// Exercise 1's tiles for variant `v`, in the order the checks ask them. A class variant's first
/// tile is one whose column reads conflict (some bank holds two or more of the column's TILE
/// words); its second one whose column reads do not (an odd TILE, an even one whose column
/// still meets every bank at most once, or TILE = 4, a block smaller than a warp); its third
/// and fourth any others.
inline std::vector<GradedTile> graded_tiles(const grader::variant::Identity& v) {
  if (v.self_study()) return {{16, 5}, {8, 5}};  // k = 5 % TILE, as the checks always asked
  grader::variant::Draw d(v, "ch09");
  const int first = d.pick(std::vector<int>{8, 12, 16, 18, 20, 22, 24, 26, 28, 30});
  const int second =
      d.pick(std::vector<int>{4, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 19, 21, 23, 25, 27, 29, 31});
  std::vector<int> others;  // two more of any kind, neither of the others
  for (int tile = 4; tile <= 31; ++tile) {
    if (tile != first && tile != second) others.push_back(tile);
  }
  std::vector<GradedTile> tiles;
  for (int tile : {first, second}) tiles.push_back({tile, d.between(0, tile - 1)});
  for (int tile : d.some(others, 2)) tiles.push_back({tile, d.between(0, tile - 1)});
  return tiles;
}

/// Two fresh tiles of the contract (4 to 31; 32 is the lesson's worked case) for exercise 1's
/// rule (grader::variant::fresh_draw), each at a column k of its own.
inline std::vector<GradedTile> fresh_tiles() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch09");
  std::vector<GradedTile> tiles;
  for (int i = 0; i < 2; ++i) {
    const int tile = d.between(4, 31);
    tiles.push_back({tile, d.between(0, tile - 1)});
  }
  return tiles;
}

/// "TILE = 16 (k = 5)".
inline std::string tile_words(const GradedTile& t) {
  return "TILE = " + std::to_string(t.tile) + " (k = " + std::to_string(t.k) + ")";
}

}  // namespace ch09::spec
