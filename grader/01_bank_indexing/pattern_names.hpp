// Chapter 01: the names of the patterns, for messages. (Where each pattern's lanes read is the
// answer of exercise 2: the host checks hold it to digests, answer_cases.hpp.)
#pragma once

#include "chapters/01_bank_indexing/bank_indexing.cuh"

namespace ch01::spec {

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
