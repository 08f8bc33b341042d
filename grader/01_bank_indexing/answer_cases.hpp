// Chapter 01: the cases of exercise 2 that the host checks hold to digests of the reference's
// values (grader/harness/answer_digest.hpp): the hand-out has no list of the patterns' addresses.
// A case is a pattern with its parameters (pattern_cases.hpp draws a variant's); the answer key
// digests every case any variant draws.
#pragma once

#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/answer_digests.hpp"
#include "grader/01_bank_indexing/pattern_cases.hpp"
#include "grader/harness/answer_digest.hpp"

namespace ch01::spec {

/// The digested case `c`: the byte addresses `address(c, lane)` of lanes 0..31.
template <typename Address>
grader::DigestCase pattern_address_case(const PatternCase& c, Address address) {
  grader::DigestCase d{"pattern_address(" + case_name(c) + ")", {}};
  for (int t = 0; t < 32; ++t) d.values.push_back(static_cast<long long>(address(c, t)));
  return d;
}

/// How the exercise's pattern_address compares with the reference's for case `c`.
inline grader::DigestMatch pattern_address_match(const PatternCase& c) {
  return grader::match_digest(grader::chapter::kAnswerDigests,
                              pattern_address_case(c, ch01::pattern_address));
}

/// The warp request of case `c` as the exercise's pattern_address gives it: the bank model's
/// input once pattern_address_match(c) is right.
inline smem::WarpRequest request_of_exercise(const PatternCase& c) {
  return smem::WarpRequest::from_lanes(pattern_width(c.pattern), smem::Op::kLoad,
                                       [c](int t) { return ch01::pattern_address(c, t); });
}

}  // namespace ch01::spec
