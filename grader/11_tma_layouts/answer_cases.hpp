// Chapter 11: the cases of exercise 1 that the host checks hold to digests of the reference's
// values (grader/harness/answer_digest.hpp), and exercise 2b's property. The hand-out holds no
// layout and no pitch: exercise 2's requests are laid out by the exercise's own tma_smem_offset
// and least_padded_pitch once they are right (or, on the GPU, by the TMA itself).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "grader/11_tma_layouts/answer_digests.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/answer_digest.hpp"
#include "grader/harness/subject_link.hpp"

namespace ch11::spec {

/// One box shape of exercise 1: a mode and a row width.
struct LayoutCase {
  TmaSwizzle mode;
  int row_bytes;
};

/// Exercise 1's digested cases: every mode, every row width it allows (16 .. 256 bytes for
/// kNone), in steps of 16.
inline std::vector<LayoutCase> layout_cases() {
  std::vector<LayoutCase> cases;
  for (TmaSwizzle mode : kModes) {
    for (int row_bytes = 16; row_bytes <= widest_row(mode); row_bytes += 16) {
      cases.push_back({mode, row_bytes});
    }
  }
  return cases;
}

/// The rows a case tries: enough for two 1024-byte atoms at least.
inline int rows_of(const LayoutCase& c) {
  return std::max(16, 2048 / c.row_bytes);
}

/// "tma_smem_offset(k64B, 32)".
inline std::string case_name(const LayoutCase& c) {
  return std::string("tma_smem_offset(") + name(c.mode) + ", " + std::to_string(c.row_bytes) + ")";
}

/// The digested case: `offset_fn(mode, row_bytes, row, byte)` of every byte of the rows tried,
/// row by row.
template <typename Offset>
grader::DigestCase layout_case(const LayoutCase& c, Offset offset_fn) {
  grader::DigestCase d{case_name(c), {}};
  grader::subject::for_each_call(
      offset_fn,
      [&](auto ask) {
        for (int row = 0; row < rows_of(c); ++row) {
          for (int byte = 0; byte < c.row_bytes; ++byte) ask(c.mode, c.row_bytes, row, byte);
        }
      },
      [&](auto value, const auto&...) { d.values.push_back(value); });
  return d;
}

/// How the exercise's tma_smem_offset compares with the reference's on case `c`.
inline grader::DigestMatch layout_match(const LayoutCase& c) {
  return grader::match_digest(grader::chapter::kAnswerDigests,
                              layout_case(c, ch11::tma_smem_offset));
}

/// True when the exercise's tma_smem_offset is right for every row width of `mode`.
inline bool mode_right(TmaSwizzle mode) {
  for (const LayoutCase& c : layout_cases()) {
    if (c.mode == mode && !layout_match(c).right) return false;
  }
  return true;
}

/// A box laid out by the exercise's tma_smem_offset in `mode`, rows of `row_bytes`.
inline Layout exercise_layout(TmaSwizzle mode, int row_bytes) {
  return [mode, row_bytes](int row, int byte) {
    return static_cast<long long>(ch11::tma_smem_offset(mode, row_bytes, row, byte));
  };
}

/// What is wrong with `pitch` as exercise 2b's answer for a tile of `columns` floats (the least
/// pitch in floats, above `columns`, of a box row: a box row is a multiple of 16 bytes), or
/// nothing when it is right.
inline std::optional<std::string> pitch_problem(int pitch, int columns) {
  const auto allowed = [columns](int floats) { return floats > columns && floats * 4 % 16 == 0; };
  if (pitch == kNotImplemented) return std::string("least_padded_pitch() is not filled in yet.");
  const std::string is = "least_padded_pitch() is " + std::to_string(pitch);
  if (pitch <= columns) {
    return is + ": the padded tile's rows hold more than its " + std::to_string(columns) +
           " floats.";
  }
  if (!allowed(pitch)) {
    return is + ": a TMA box row of that many floats is not a multiple of 16 bytes.";
  }
  for (int smaller = columns + 1; smaller < pitch; ++smaller) {
    if (allowed(smaller)) return is + ": a smaller pitch is allowed.";
  }
  return std::nullopt;
}

}  // namespace ch11::spec
