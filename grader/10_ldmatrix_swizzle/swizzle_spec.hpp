// Chapter 10: the grader's statement of the questions: the tiles' layouts as the interface
// defines them, and the accesses exercise 2 asks about. The swizzle itself is exercise 1: a
// swizzled tile is placed through a swizzle function given by the caller (the student's own).
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "grader/harness/variant.hpp"

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"

namespace ch10::spec {

/// A swizzle function of (B, M, S, offset), as exercise 1's swizzle is.
using SwizzleFn = std::function<int(int, int, int, int)>;

/// Rows of the tile the checks use (a 128-row operand tile of one K-step).
constexpr int kRows = 128;

/// The row widths exercise 2 asks about at self-study (variant 0).
constexpr int kRowWidths[] = {64, 128};

/// The layouts exercise 2b asks about.
constexpr Layout kLayouts[] = {Layout::kPlain, Layout::kPadded16, Layout::kSwizzled};

inline const char* name(Layout l) {
  switch (l) {
    case Layout::kPlain: return "kPlain";
    case Layout::kPadded16: return "kPadded16";
    case Layout::kSwizzled: return "kSwizzled";
  }
  return "?";
}

/// The byte address where the plain layout's byte `plain` of a tile with rows of `row_bytes`
/// lives in `layout` (the interface's definition), with swizzle parameters `p` and the swizzle
/// function `swizzle_fn` for Layout::kSwizzled.
inline long long place(int row_bytes, Layout layout, const SwizzleParams& p, long long plain,
                       const SwizzleFn& swizzle_fn) {
  switch (layout) {
    case Layout::kPlain: return plain;
    case Layout::kPadded16: return plain / row_bytes * (row_bytes + 16) + plain % row_bytes;
    case Layout::kSwizzled: return swizzle_fn(p.b, p.m, p.s, static_cast<int>(plain));
  }
  return plain;
}

/// One ldmatrix.x4 of the A-fragment pattern: lane l gives row r0 + l % 16, chunk c + l / 16.
inline smem::WarpRequest ldmatrix_x4(int row_bytes, Layout layout, const SwizzleParams& p, int r0,
                                     int c, const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::ldmatrix(4, [&](int l) {
    return place(row_bytes, layout, p, 1LL * (r0 + l % 16) * row_bytes + 16 * (c + l / 16),
                 swizzle_fn);
  });
}

/// Warp w's 16-byte store of 32 consecutive chunks of the plain layout (how cp.async fills it).
inline smem::WarpRequest chunk_store(int row_bytes, Layout layout, const SwizzleParams& p, int w,
                                     const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int l) {
    return place(row_bytes, layout, p, 512LL * w + 16 * l, swizzle_fn);
  });
}

/// Warp w's cp.async of 32 consecutive chunks of the plain layout (how exercise 3's kernel fills
/// a tile): lanes read global rows of `row_bytes` (at most a 128-byte line per row is modelled).
inline smem::WarpRequest cp_async_fill(int row_bytes, Layout layout, const SwizzleParams& p, int w,
                                       const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::async_copy(row_bytes < 128 ? row_bytes : 128, [&](int l) {
    return place(row_bytes, layout, p, 512LL * w + 16 * l, swizzle_fn);
  });
}

/// One ldmatrix.x4 exercise 2b asks about: the tile's rows and layout, and where it reads (rows
/// r0 .. r0 + 15, chunks c and c + 1).
struct LdmatrixCase {
  int row_bytes;
  Layout layout;
  int r0;
  int c;
};

/// The row widths a class variant draws: one a swizzle can serve (a power of two, 32 to 128; the
/// lesson works 256), and three that are not a power of two (plain and padded only), 48 to 496.
/// Exercise 2a asks chosen_swizzle about all of the first kind, whatever the variant, so that no
/// wrong width goes ungraded; official grading's hidden check asks 512 and 1024.
inline const std::vector<int>& swizzle_widths_drawn() {
  static const std::vector<int> w = {32, 64, 128};
  return w;
}
inline const std::vector<int>& other_widths_drawn() {
  static const std::vector<int> w = {48,  80,  96,  112, 144, 160, 176, 192, 208,
                                     224, 240, 272, 288, 304, 320, 336, 352, 368,
                                     384, 400, 416, 432, 448, 464, 480, 496};
  return w;
}

/// A multiple of 16 r0 and an even chunk c for an ldmatrix.x4 on `row_bytes` rows, drawn from
/// `d`: rows r0 .. r0 + 15 of the tile's kRows, read within the 48 KiB of shared memory a block
/// has everywhere, in any layout.
inline std::pair<int, int> ldmatrix_position(int row_bytes, grader::variant::Draw& d) {
  const int rows_that_fit = (48 * 1024 - row_bytes) / (row_bytes + 16);
  const int r0 = 16 * d.between(0, std::min(kRows, rows_that_fit) / 16 - 1);
  return {r0, 2 * d.between(0, (row_bytes / 16 - 2) / 2)};
}

/// Exercise 2b's cases for variant `v`, in the order the checks ask them. Self-study: 64- and
/// 128-byte rows, each plain, padded and swizzled, at rows 0-15, chunk 0. A class variant: its
/// swizzle width (plain, padded and swizzled; not plain at 32 bytes, the lesson's analyser
/// example) and its three other widths (plain and padded), at rows and chunks of their own.
inline std::vector<LdmatrixCase> ldmatrix_cases(const grader::variant::Identity& v) {
  std::vector<LdmatrixCase> out;
  if (v.self_study()) {
    for (int row_bytes : kRowWidths) {
      for (Layout layout : kLayouts) out.push_back({row_bytes, layout, 0, 0});
    }
    return out;
  }
  grader::variant::Draw d(v, "ch10");
  const int first = d.pick(swizzle_widths_drawn());
  std::vector<int> widths = {first};
  for (int w : d.some(other_widths_drawn(), 3)) widths.push_back(w);
  for (int row_bytes : widths) {
    const auto [r0, c] = ldmatrix_position(row_bytes, d);
    for (Layout layout : kLayouts) {
      if (layout == Layout::kPlain && row_bytes == 32) continue;
      if (layout == Layout::kSwizzled && row_bytes != first) continue;
      out.push_back({row_bytes, layout, r0, c});
    }
  }
  return out;
}

/// Fresh cases for exercise 2b's rule (grader::variant::fresh_draw), graded after the
/// variant's cases `asked`: two row widths of those a variant may draw that `asked` has not (so
/// that no table of the variant's numbers answers them), each plain and padded (a swizzled tile
/// is the student's own choice, graded at the variant's widths), at rows and chunks of their own.
inline std::vector<LdmatrixCase> fresh_ldmatrix_cases(const std::vector<LdmatrixCase>& asked) {
  grader::variant::Draw d = grader::variant::fresh_draw("ch10");
  std::vector<int> widths = other_widths_drawn();
  widths.insert(widths.end(), {64, 128});
  widths.erase(std::remove_if(widths.begin(), widths.end(),
                              [&](int w) {
                                return std::any_of(asked.begin(), asked.end(),
                                                   [&](const auto& c) { return c.row_bytes == w; });
                              }),
               widths.end());
  std::vector<LdmatrixCase> out;
  for (int row_bytes : d.some(widths, 2)) {
    const auto [r0, c] = ldmatrix_position(row_bytes, d);
    for (Layout layout : {Layout::kPlain, Layout::kPadded16}) {
      out.push_back({row_bytes, layout, r0, c});
    }
  }
  return out;
}

/// "the ldmatrix.x4 of rows 0 .. 15, chunks 0 and 1 on 64-byte rows, kPlain".
inline std::string case_words(const LdmatrixCase& c) {
  return "the ldmatrix.x4 of rows " + std::to_string(c.r0) + " .. " + std::to_string(c.r0 + 15) +
         ", chunks " + std::to_string(c.c) + " and " + std::to_string(c.c + 1) + " on " +
         std::to_string(c.row_bytes) + "-byte rows, " + name(c.layout);
}

}  // namespace ch10::spec
