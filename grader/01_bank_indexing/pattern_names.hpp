// Chapter 01: the names of the patterns and of their cases, for messages. (Where each pattern's
// lanes read is the answer of exercise 2: the host checks hold it to digests, answer_cases.hpp.)
#pragma once

#include <string>

#include "chapters/01_bank_indexing/bank_indexing.cuh"

namespace ch01::spec {

/// The name of a pattern's enumerator, for messages.
inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::kReversedFloats: return "kReversedFloats";
    case Pattern::kStrideFloats: return "kStrideFloats";
    case Pattern::kStructMember: return "kStructMember";
    case Pattern::kColumnOfTile: return "kColumnOfTile";
    case Pattern::kColumnOfPaddedTile: return "kColumnOfPaddedTile";
    case Pattern::kFewFloatsShared: return "kFewFloatsShared";
    case Pattern::kWordsInOneBank: return "kWordsInOneBank";
    case Pattern::kBytesStride: return "kBytesStride";
    case Pattern::kShortsStride: return "kShortsStride";
  }
  return "?";
}

/// Whether pattern `p` has a second parameter, m.
inline bool has_m(Pattern p) {
  return p == Pattern::kStructMember || p == Pattern::kColumnOfTile ||
         p == Pattern::kColumnOfPaddedTile || p == Pattern::kWordsInOneBank;
}

/// A case by its pattern and parameters, e.g. "kStrideFloats n=8", "kColumnOfTile n=16 m=3".
inline std::string case_name(const PatternCase& c) {
  return std::string(name(c.pattern)) + " n=" + std::to_string(c.n) +
         (has_m(c.pattern) ? " m=" + std::to_string(c.m) : std::string());
}

}  // namespace ch01::spec
