// Chapter 11: the grader's statement of the questions: the TMA's modes and their limits, and the
// accesses exercise 2 asks about. Where the TMA puts each byte is exercise 1: a box's layout
// comes from a function given by the caller (the student's own, or the GPU's dump).
#pragma once

#include <functional>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/model/bank_model.hpp"

namespace ch11::spec {

/// The four modes, in the order the checks try them.
constexpr TmaSwizzle kModes[] = {TmaSwizzle::kNone, TmaSwizzle::k32B, TmaSwizzle::k64B,
                                 TmaSwizzle::k128B};

/// The widest box row the TMA allows in `mode`: the span of a swizzled mode (32, 64 or 128
/// bytes, section 1 of the lesson); for kNone, which has no such limit, 256, the widest row the
/// checks try.
inline int widest_row(TmaSwizzle mode) {
  switch (mode) {
    case TmaSwizzle::k32B: return 32;
    case TmaSwizzle::k64B: return 64;
    case TmaSwizzle::k128B: return 128;
    case TmaSwizzle::kNone: break;
  }
  return 256;
}

inline const char* name(TmaSwizzle mode) {
  switch (mode) {
    case TmaSwizzle::kNone: return "kNone";
    case TmaSwizzle::k32B: return "k32B";
    case TmaSwizzle::k64B: return "k64B";
    case TmaSwizzle::k128B: return "k128B";
  }
  return "?";
}

inline const char* name(ColumnRead read) {
  return read == ColumnRead::kWords ? "kWords" : "kChunks";
}

/// Where a box's byte `byte` of row `row` lives, from the box's 1024-byte aligned base.
using Layout = std::function<long long(int row, int byte)>;

/// A warp reading down a column of exercise 2a's box, laid out by `layout`: by words (lane t:
/// float `column` of row t) or by chunks (lane t: the 16-byte chunk of row t that holds it).
inline smem::WarpRequest column_read(ColumnRead read, const Layout& layout, int column) {
  const bool words = read == ColumnRead::kWords;
  const int byte = words ? 4 * column : 16 * (column / 4);
  return smem::WarpRequest::from_lanes(words ? 4 : 16, smem::Op::kLoad,
                                       [&](int t) { return layout(t, byte); });
}

/// Exercise 2c's access: a warp reading float 0 of rows 0-31 at `pitch` floats.
inline smem::WarpRequest padded_column(int pitch) {
  return smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * pitch * t; });
}

}  // namespace ch11::spec
