// Chapter 01: the grader's own statement of each pattern's addresses, written independently of
// any exercise file, and the bank model's verdict on it.
#pragma once

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"

namespace ch01::spec {

/// The byte address lane `t` reads in pattern `p`, straight from the declarations.
inline unsigned expected_address(Pattern p, int t) {
  const unsigned lane = static_cast<unsigned>(t);
  switch (p) {
    case Pattern::kContiguousFloats: return sizeof(float) * lane;
    case Pattern::kStride2Floats: return sizeof(float) * 2 * lane;
    case Pattern::kStructField: return 4 * sizeof(float) * lane + sizeof(float);
    case Pattern::kColumnOf32x32: return sizeof(float) * (32 * lane + 5);
    case Pattern::kColumnOf32x33: return sizeof(float) * (33 * lane + 5);
    case Pattern::kSameFloat: return sizeof(float) * 7;
    case Pattern::kTwoWordsOneBank: return sizeof(float) * 32 * (lane % 2);
    case Pattern::kBytes: return lane;
    case Pattern::kShortsStride64: return sizeof(short) * 64 * lane;
  }
  return kNoAddress;
}

/// The warp request of pattern `p` as the bank model takes it.
inline smem::WarpRequest request(Pattern p) {
  return smem::WarpRequest::from_lanes(pattern_width(p), smem::Op::kLoad,
                                       [p](int t) { return expected_address(p, t); });
}

/// The name of a pattern's enumerator, for messages.
inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::kContiguousFloats: return "kContiguousFloats";
    case Pattern::kStride2Floats: return "kStride2Floats";
    case Pattern::kStructField: return "kStructField";
    case Pattern::kColumnOf32x32: return "kColumnOf32x32";
    case Pattern::kColumnOf32x33: return "kColumnOf32x33";
    case Pattern::kSameFloat: return "kSameFloat";
    case Pattern::kTwoWordsOneBank: return "kTwoWordsOneBank";
    case Pattern::kBytes: return "kBytes";
    case Pattern::kShortsStride64: return "kShortsStride64";
  }
  return "?";
}

}  // namespace ch01::spec
