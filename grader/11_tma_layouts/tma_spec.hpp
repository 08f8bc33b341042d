// Chapter 11: the grader's own statement of the TMA's layouts, as the H200 writes them (checked
// against the hardware by the GPU checks), and of the accesses the exercises ask about.
#pragma once

#include <string>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/model/bank_model.hpp"

namespace ch11::spec {

/// The bytes one box row may span in `mode`: 32, 64 or 128; for kNone, which has no such limit,
/// 256, the widest row the checks try.
inline int span(TmaSwizzle mode) {
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

/// The bytes one box row takes in shared memory: in a swizzled mode the whole span, however
/// narrow the row (the rest of the span stays unwritten); without a swizzle the row itself.
inline int smem_pitch(TmaSwizzle mode, int box_row_bytes) {
  return mode == TmaSwizzle::kNone ? box_row_bytes : span(mode);
}

/// Where the TMA puts byte `byte` of box row `row`, from a 1024-byte aligned base, as the H200
/// does it: at a = row * smem_pitch + byte, then chunk bits 4 .. 4 + B - 1 of a are XORed with
/// bits 7 .. 7 + B - 1 (the 128-byte line's index), B = 1, 2, 3 for 32B, 64B, 128B. Written bit
/// by bit, apart from the exercise.
inline int offset(TmaSwizzle mode, int box_row_bytes, int row, int byte) {
  const int a = row * smem_pitch(mode, box_row_bytes) + byte;
  const int b = static_cast<int>(mode);  // 0, 1, 2, 3 bits
  int out = a;
  for (int i = 0; i < b; ++i) out ^= ((a >> (7 + i)) & 1) << (4 + i);
  return out;
}

/// Exercise 2a's box: 32 rows as wide as the mode allows (kNone: 128 bytes).
inline int column_box_row_bytes(TmaSwizzle mode) {
  return mode == TmaSwizzle::kNone ? 128 : span(mode);
}

/// A warp reading column 0 of exercise 2a's box, written in `mode`, by words or by chunks.
inline smem::WarpRequest column_read(TmaSwizzle mode, ColumnRead read) {
  const int row_bytes = column_box_row_bytes(mode);
  return smem::WarpRequest::from_lanes(read == ColumnRead::kWords ? 4 : 16, smem::Op::kLoad,
                                       [&](int t) { return offset(mode, row_bytes, t, 0); });
}

/// The least pitch in floats, above 32, of a box row: a multiple of 16 bytes.
inline int least_padded_pitch() {
  int pitch = 33;
  while (pitch * 4 % 16 != 0) ++pitch;
  return pitch;
}

/// A warp reading float 0 of rows 0-31 at `pitch` floats.
inline smem::WarpRequest padded_column(int pitch) {
  return smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * pitch * t; });
}

}  // namespace ch11::spec
