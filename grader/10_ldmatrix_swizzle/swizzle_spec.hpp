// Chapter 10: the grader's statement of the questions: the tiles' layouts as the interface
// defines them, and the accesses exercise 2 asks about. The swizzle itself is exercise 1: a
// swizzled tile is placed through a swizzle function given by the caller (the student's own).
#pragma once

#include <functional>
#include <string>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"

namespace ch10::spec {

/// A swizzle function of (B, M, S, offset), as exercise 1's swizzle is.
using SwizzleFn = std::function<int(int, int, int, int)>;

/// Rows of the tile the checks use (a 128-row operand tile of one K-step).
constexpr int kRows = 128;

/// The row widths exercise 2 asks about.
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

}  // namespace ch10::spec
