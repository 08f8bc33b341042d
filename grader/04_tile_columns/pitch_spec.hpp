// Chapter 04: the question of exercise 1 (does a pitch make every column read conflict-free?),
// asked of the bank model, the student's calculator. It holds no answer: the host checks ask it
// about the student's own pitch, and about every smaller one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "grader/harness/variant.hpp"

namespace ch04::spec {

/// The request of a warp reading column `column` of a tile with `pitch` elements per row:
/// lane t reads row t.
inline smem::WarpRequest column_read(int element_bytes, int pitch, int column) {
  return smem::WarpRequest::from_lanes(element_bytes, smem::Op::kLoad, [&](int t) {
    return static_cast<std::int64_t>(element_bytes) *
           (static_cast<std::int64_t>(t) * pitch + column);
  });
}

/// The first column whose read conflicts at this pitch, or -1. Columns one word apart give the
/// same picture shifted by one bank, so the columns within the first word are enough.
inline int conflicting_column(int element_bytes, int width, int pitch) {
  const int columns = std::min(width, std::max(1, 4 / element_bytes));
  for (int c = 0; c < columns; ++c) {
    if (smem::analyze(column_read(element_bytes, pitch, c)).excess != 0) return c;
  }
  return -1;
}

/// The (element size, width) pairs the lesson works out in full, float tiles 16, 17, 32 and
/// 33 wide: no check grades them, here or in official grading.
inline bool worked_by_the_lesson(int element_bytes, int width) {
  return element_bytes == 4 && (width == 16 || width == 17 || width == 32 || width == 33);
}

/// One graded (element size, width) pair of exercise 1.
struct PitchCase {
  int element_bytes;
  int width;
};

/// The element sizes exercise 1 grades.
inline const std::vector<int>& element_sizes() {
  static const std::vector<int> sizes{1, 2, 4, 8, 16};
  return sizes;
}

/// The widest tile a class variant grades, and how many widths of each element size it grades.
inline constexpr int kWidestClassWidth = 512;
inline constexpr int kClassWidthsPerSize = 48;

/// The pairs exercise 1 grades for variant `v`. Self-study: every element size at widths 1 to
/// 256. A class variant: kClassWidthsPerSize widths of each size from 1 to kWidestClassWidth,
/// its own. Neither grades the pairs the lesson works.
inline std::vector<PitchCase> graded_pitches(
    const grader::variant::Identity& v = grader::variant::current()) {
  std::vector<PitchCase> cases;
  grader::variant::Draw draw(v, "ch04 exercise 1");
  for (int bytes : element_sizes()) {
    std::vector<int> widths;
    for (int width = 1; width <= (v.self_study() ? 256 : kWidestClassWidth); ++width) {
      if (!worked_by_the_lesson(bytes, width)) widths.push_back(width);
    }
    if (!v.self_study()) widths = draw.some(widths, kClassWidthsPerSize);
    for (int width : widths) cases.push_back({bytes, width});
  }
  return cases;
}

/// Fresh pairs for exercise 1's rule (grader::variant::fresh_draw), graded after the variant's:
/// kFreshWidthsPerSize widths of each element size up to kLocalWidths, so that a table of the
/// variant's pitches fails where a rule passes. Official grading's hidden check asks the rest of
/// the contract, above kLocalWidths: no local run asks those, so no table of them can be read off.
inline constexpr int kFreshWidthsPerSize = 2;
inline constexpr int kLocalWidths = 512;
inline std::vector<PitchCase> fresh_pitches() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch04");
  std::vector<PitchCase> cases;
  for (int bytes : element_sizes()) {
    for (int i = 0; i < kFreshWidthsPerSize; ++i) {
      int width = d.between(1, kLocalWidths);
      while (worked_by_the_lesson(bytes, width)) width = d.between(1, kLocalWidths);
      cases.push_back({bytes, width});
    }
  }
  return cases;
}

/// "padded_pitch(4, 37)".
inline std::string call_of(const PitchCase& c) {
  return "padded_pitch(" + std::to_string(c.element_bytes) + ", " + std::to_string(c.width) + ")";
}

}  // namespace ch04::spec
