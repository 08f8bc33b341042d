// Chapter 04: exercise 1's judgement, for the hand-out's widths and for official grading's
// others alike: the student's pitch against the bank model, and every smaller pitch too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch04::spec {

/// Why padded_pitch(4, 32) may not size and index the kernel's tile (`32 * pitch` floats of
/// dynamic shared memory), or nothing: it must be 32 to 96, a row of 32 with less than 64 of
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
                            std::to_string(width) + " elements, with less than 64 of padding.");
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
