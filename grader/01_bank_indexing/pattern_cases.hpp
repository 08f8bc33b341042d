// Chapter 01: the names of the patterns and of their cases, for messages, and the cases a
// variant grades (variant_cases.cpp draws them). (Where each pattern's lanes read is the answer
// of exercise 2: the host checks hold it to digests, answer_cases.hpp.)
#pragma once

#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "grader/harness/variant.hpp"

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

/// Variant `v`'s case of pattern `p`: at self-study the workbook's own, else drawn from the
/// pattern's range (every_drawable_case()).
PatternCase pattern_case(const grader::variant::Identity& v, Pattern p);

/// Variant `v`'s cases of every pattern, in the order of kAllPatterns.
std::vector<PatternCase> pattern_cases(const grader::variant::Identity& v);

/// Two fresh cases of each pattern besides variant `v`'s (grader::variant::fresh_draw), in the
/// order of kAllPatterns: exercise 3's rules are graded on them too.
std::vector<PatternCase> fresh_pattern_cases(const grader::variant::Identity& v);

/// Every case of `p` that some variant grades (the answer key digests each one).
std::vector<PatternCase> every_drawable_case(Pattern p);

/// Whether the lesson works case `c` out (its examples, pictures and analyser commands): such
/// a case is never drawn.
bool worked_by_the_lesson(const PatternCase& c);

/// The seed of the random addresses that exercise 1's host check tries for variant `v`.
unsigned bank_of_seed(const grader::variant::Identity& v);

}  // namespace ch01::spec
