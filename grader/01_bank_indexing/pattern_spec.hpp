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
    case Pattern::kReversedFloats: return sizeof(float) * (31 - lane);
    case Pattern::kStride8Floats: return sizeof(float) * 8 * lane;
    case Pattern::kStructOfThree: return 3 * sizeof(float) * lane + 2 * sizeof(float);
    case Pattern::kColumnOf32x16: return sizeof(float) * (16 * lane + 3);
    case Pattern::kColumnOf32x34: return sizeof(float) * (34 * lane + 1);
    case Pattern::kFourFloatsShared: return sizeof(float) * (lane % 4);
    case Pattern::kFourWordsOneBank: return sizeof(float) * 32 * (lane % 4);
    case Pattern::kBytesStride16: return 16 * lane;
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
    case Pattern::kReversedFloats: return "kReversedFloats";
    case Pattern::kStride8Floats: return "kStride8Floats";
    case Pattern::kStructOfThree: return "kStructOfThree";
    case Pattern::kColumnOf32x16: return "kColumnOf32x16";
    case Pattern::kColumnOf32x34: return "kColumnOf32x34";
    case Pattern::kFourFloatsShared: return "kFourFloatsShared";
    case Pattern::kFourWordsOneBank: return "kFourWordsOneBank";
    case Pattern::kBytesStride16: return "kBytesStride16";
    case Pattern::kShortsStride64: return "kShortsStride64";
  }
  return "?";
}

}  // namespace ch01::spec
