// Digests of the right answers of this chapter's digested cases, and of typical slips
// (CASE#slip), for the host checks (grader/harness/answer_digest.hpp). Written by the
// answer key, solutions/01_bank_indexing/answer_key.cpp,
// in a maintainers' build (ninja -C <build> answer-digests), which also holds it to the
// reference solution; do not edit.
#pragma once

#include <vector>

#include "grader/harness/answer_digest.hpp"

namespace grader::chapter {

inline const std::vector<AnswerDigest> kAnswerDigests = {
    {"pattern_address(kReversedFloats)", 0x3d62ddd0c2da43d3ull},
    {"pattern_address(kStride8Floats)", 0x140ffeafde117a5cull},
    {"pattern_address(kStructOfThree)", 0xa71f59b57b7ef9a7ull},
    {"pattern_address(kColumnOf32x16)", 0x17f99cdbb98ee471ull},
    {"pattern_address(kColumnOf32x34)", 0x63b9e034424e1fe5ull},
    {"pattern_address(kFourFloatsShared)", 0x469f4f2d5759dc20ull},
    {"pattern_address(kFourWordsOneBank)", 0xcaf0602f14741667ull},
    {"pattern_address(kBytesStride16)", 0x272737ab85b86585ull},
    {"pattern_address(kShortsStride64)", 0x22d66c8d4f69c46aull},
    {"pattern_address(kStructOfThree)#member_offset_missing", 0xafab4a74c47b75ecull},
    {"pattern_address(kColumnOf32x34)#unpadded_pitch", 0xe5c17891cbbbf48dull},
    {"pattern_address(kColumnOf32x16)#unpadded_pitch", 0x7f434d88f162d611ull},
};

}  // namespace grader::chapter
