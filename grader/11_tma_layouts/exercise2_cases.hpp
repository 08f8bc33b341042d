// Chapter 11: the boxes and reads exercise 2 asks about, drawn from the student's variant
// (grader/harness/variant.hpp). Variant 0 asks what the workbook always asked: in each mode a
// box of 32 rows as wide as the mode allows (kNone: 128 bytes) read down column 0, and a padded
// tile of 32 floats. A class variant draws each mode's row width and the column read, and the
// padded tile's width.
#pragma once

#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/variant.hpp"

namespace ch11::spec {

/// Exercise 2a's box in one mode: 32 rows of `row_bytes`, read down float `column` (kChunks:
/// the 16-byte chunk holding it).
struct ColumnCase {
  TmaSwizzle mode = TmaSwizzle::kNone;
  int row_bytes = 128;
  int column = 0;
};

/// The widest row exercise 2a draws in `mode`: the mode's span; for kNone 144 bytes, the widest
/// the GPU check of exercise 1 has the TMA write.
inline int widest_column_box_row(TmaSwizzle mode) {
  return mode == TmaSwizzle::kNone ? 144 : widest_row(mode);
}

/// The cases of exercise 2.
struct Exercise2Case {
  ColumnCase columns[4];    ///< exercise 2a, in the order of kModes
  int padded_columns = 32;  ///< exercise 2b: the padded tile's floats per row (33 .. 60)

  const ColumnCase& column(TmaSwizzle mode) const {
    for (const ColumnCase& c : columns) {
      if (c.mode == mode) return c;
    }
    return columns[0];
  }
};

/// The variant's cases of exercise 2 (variant 0: the workbook's own).
inline Exercise2Case exercise2_case(const grader::variant::Identity& v) {
  Exercise2Case e;
  grader::variant::Draw d(v, "ch11");
  for (int m = 0; m < 4; ++m) {
    ColumnCase& c = e.columns[m];
    c.mode = kModes[m];
    c.row_bytes = c.mode == TmaSwizzle::kNone ? 128 : widest_row(c.mode);
    if (d.self_study()) continue;
    c.row_bytes = 16 * d.between(1, widest_column_box_row(c.mode) / 16);
    c.column = d.between(0, c.row_bytes / 4 - 1);
  }
  if (!d.self_study()) e.padded_columns = d.between(33, 60);
  return e;
}

/// Fresh boxes for exercise 2a's rule (grader::variant::fresh_draw), one of each mode, and fresh
/// pitches for exercise 2c's (multiples of 4 floats from 36 to 64), graded after the variant's.
inline Exercise2Case fresh_exercise2_case() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch11");
  Exercise2Case e;
  for (int m = 0; m < 4; ++m) {
    ColumnCase& c = e.columns[m];
    c.mode = kModes[m];
    c.row_bytes = 16 * d.between(1, widest_column_box_row(c.mode) / 16);
    c.column = d.between(0, c.row_bytes / 4 - 1);
  }
  return e;
}
inline std::vector<int> fresh_padded_pitches() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch11 pitches");
  return {4 * d.between(9, 16), 4 * d.between(9, 16)};
}

/// "32 rows of 128 bytes in k64B, read down float 5 (lane t: float 5 of row t)".
inline std::string column_text(const ColumnCase& c, ColumnRead read) {
  const std::string rows = "a box of 32 rows of " + std::to_string(c.row_bytes) + " bytes (" +
                           std::to_string(c.row_bytes / 4) + " floats) written in " + name(c.mode) +
                           ", ";
  if (read == ColumnRead::kWords) {
    return rows + "lane t reading float " + std::to_string(c.column) + " of row t";
  }
  return rows + "lane t reading chunk " + std::to_string(c.column / 4) + " (floats " +
         std::to_string(c.column / 4 * 4) + "-" + std::to_string(c.column / 4 * 4 + 3) +
         ") of row t";
}

inline std::string padded_text(const Exercise2Case& e) {
  return "a padded float tile of " + std::to_string(e.padded_columns) +
         " columns, as a box of a wider matrix in kNone";
}

}  // namespace ch11::spec
