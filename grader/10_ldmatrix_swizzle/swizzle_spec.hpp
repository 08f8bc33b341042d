// Chapter 10: the grader's own statement of the swizzle and of the tile's accesses.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"

namespace ch10::spec {

/// Swizzle<B, M, S>, written independently of the exercise: bit i of the result is bit i of
/// `offset`, XORed with bit i + S when M <= i < M + B.
inline int swizzle(int b, int m, int s, int offset) {
  int out = offset;
  for (int i = m; i < m + b; ++i) out ^= ((offset >> (i + s)) & 1) << i;
  return out;
}

/// Rows of the tile the checks use (a 128-row operand tile of one K-step).
constexpr int kRows = 128;

/// The byte address where the plain layout's byte `plain` of a tile with rows of `row_bytes`
/// lives in `layout`, with swizzle parameters `p` for Layout::kSwizzled.
inline long long place(int row_bytes, Layout layout, const SwizzleParams& p, long long plain,
                       const std::function<int(int, int, int, int)>& swizzle_fn) {
  switch (layout) {
    case Layout::kPlain: return plain;
    case Layout::kPadded16: return plain / row_bytes * (row_bytes + 16) + plain % row_bytes;
    case Layout::kSwizzled: return swizzle_fn(p.b, p.m, p.s, static_cast<int>(plain));
  }
  return plain;
}

/// One ldmatrix.x4 of the A-fragment pattern: lane l gives row r0 + l % 16, chunk c + l / 16.
inline smem::WarpRequest ldmatrix_x4(int row_bytes, Layout layout, const SwizzleParams& p, int r0,
                                     int c,
                                     const std::function<int(int, int, int, int)>& swizzle_fn) {
  return smem::WarpRequest::ldmatrix(4, [&](int l) {
    return place(row_bytes, layout, p, 1LL * (r0 + l % 16) * row_bytes + 16 * (c + l / 16),
                 swizzle_fn);
  });
}

/// Warp w's 16-byte store of 32 consecutive chunks of the plain layout (how cp.async fills it).
inline smem::WarpRequest chunk_store(int row_bytes, Layout layout, const SwizzleParams& p, int w,
                                     const std::function<int(int, int, int, int)>& swizzle_fn) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int l) {
    return place(row_bytes, layout, p, 512LL * w + 16 * l, swizzle_fn);
  });
}

}  // namespace ch10::spec
