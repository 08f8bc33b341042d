// Chapter 04: the question of exercise 1 (does a pitch make every column read conflict-free?),
// asked of the bank model, the student's calculator. It holds no answer: the host checks ask it
// about the student's own pitch, and about every smaller one.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/model/bank_model.hpp"

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

}  // namespace ch04::spec
