// Chapter 04: the question of exercise 1 (does a pitch make every column read conflict-free?),
// asked of the bank model, the student's calculator, and its judgement, for the hand-out's widths
// and for official grading's others alike: the student's pitch against the bank model, and every
// smaller pitch too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"
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

/// Why padded_pitch(4, 32) may not size and index the kernel's tile (`32 * pitch` floats of
/// dynamic shared memory), or nothing: it must be 32 to 96, a row of 32 with at most 64 of
/// padding, as exercise 1 holds every pitch to. The GPU checks ask it before launching anything
/// sized by it.
inline std::optional<std::string> kernel_pitch_fault() {
  const int pitch = ch04::padded_pitch(4, ch04::kTile);
  if (pitch >= ch04::kTile && pitch <= ch04::kTile + 64) return std::nullopt;
  return "padded_pitch(4, 32) is " + std::to_string(pitch) + ", outside the range allowed, " +
         std::to_string(ch04::kTile) + " to " + std::to_string(ch04::kTile + 64) + " floats";
}

/// The feedback for padded_pitch(bytes, width) when it is not the least conflict-free pitch, or
/// nothing.
inline std::optional<grader::Feedback> pitch_problem_of(int bytes, int width) {
  const int pitch = ch04::padded_pitch(bytes, width);
  const std::string call =
      "padded_pitch(" + std::to_string(bytes) + ", " + std::to_string(width) + ")";
  if (pitch == ch04::kNotImplemented) {
    return grader::Feedback(call + " is not implemented yet (it returns kNotImplemented).")
        .hint(
            "start from floats (4 bytes): which row lengths does the gcd law of chapter 02 make "
            "conflict-free?");
  }
  if (pitch < width || pitch > width + 64) {
    return grader::Feedback(call + " = " + std::to_string(pitch) + ": a row must hold its " +
                            std::to_string(width) + " elements, with at most 64 of padding.");
  }
  const int column = conflicting_column(bytes, width, pitch);
  if (column >= 0) {
    grader::Feedback f(call + " = " + std::to_string(pitch) + ": reading column " +
                       std::to_string(column) + " at that pitch conflicts.");
    if (bytes < 4 && pitch % 2 == 1) {
      f.line(
          "An odd pitch in elements is not enough for bytes and halfwords: count the row in "
          "4-byte words.");
    }
    if (bytes >= 8) {
      f.line(
          "A column of 8- or 16-byte elements is served in groups of 16 or 8 lanes, each lane on "
          "2 or 4 banks: count the row in elements, not in 4-byte words.");
    }
    return f.picture(grader::draw(column_read(bytes, pitch, column)))
        .hint(bytes >= 8 ? "the lanes of each group must start in different bank pairs (8 bytes) "
                           "or bank quads (16 bytes); lesson section 3."
                         : "rows must start in different banks, or share words; count the row "
                           "length in 4-byte words.");
  }
  // Minimal: no smaller pitch that still holds the row is conflict-free (which one is, the
  // feedback does not say).
  for (int smaller = width; smaller < pitch; ++smaller) {
    if (conflicting_column(bytes, width, smaller) >= 0) continue;
    return grader::Feedback(call + " = " + std::to_string(pitch) +
                            " is conflict-free but not the least padding: a smaller pitch, "
                            "still at least " +
                            std::to_string(width) + ", is conflict-free too.")
        .hint(
            "padding costs shared memory: take the smallest pitch that works, and check the "
            "pitches below yours with analyze_smem_access.");
  }
  return std::nullopt;
}

/// The feedback for the first of `cases` whose pitch is wrong, with how many are; or nothing.
inline std::optional<grader::Feedback> pitch_problem(const std::vector<PitchCase>& cases) {
  std::optional<grader::Feedback> problem;
  int wrong = 0;
  for (const PitchCase& c : cases) {
    auto p = pitch_problem_of(c.element_bytes, c.width);
    if (!p) continue;
    if (wrong++ == 0) problem = p;
    if (ch04::padded_pitch(c.element_bytes, c.width) == ch04::kNotImplemented) return problem;
  }
  if (problem) {
    problem->line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
                  " graded (element size, width) pairs got a wrong pitch; this is the first.");
  }
  return problem;
}

/// pitch_problem() for every element size at widths `first`..`last`, less the pairs the lesson
/// works (official grading's hidden widths).
inline std::optional<grader::Feedback> pitch_problem(int first, int last) {
  std::vector<PitchCase> cases;
  for (int bytes : element_sizes()) {
    for (int width = first; width <= last; ++width) {
      if (!worked_by_the_lesson(bytes, width)) cases.push_back({bytes, width});
    }
  }
  return pitch_problem(cases);
}

}  // namespace ch04::spec
