// Chapter 01: the cases of exercise 2 that the host checks hold to digests of the reference's
// values (grader/harness/answer_digest.hpp): the hand-out has no list of the patterns' addresses.
#pragma once

#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/answer_digests.hpp"
#include "grader/01_bank_indexing/pattern_names.hpp"
#include "grader/harness/answer_digest.hpp"

namespace ch01::spec {

/// The digested case of pattern `p`: the byte addresses `address(p, lane)` of lanes 0..31.
template <typename Address>
grader::DigestCase pattern_address_case(Pattern p, Address address) {
  grader::DigestCase c{std::string("pattern_address(") + name(p) + ")", {}};
  for (int t = 0; t < 32; ++t) c.values.push_back(static_cast<long long>(address(p, t)));
  return c;
}

/// How the exercise's pattern_address compares with the reference's for `p`.
inline grader::DigestMatch pattern_address_match(Pattern p) {
  return grader::match_digest(grader::chapter::kAnswerDigests,
                              pattern_address_case(p, ch01::pattern_address));
}

/// The warp request of pattern `p` as the exercise's pattern_address gives it: the bank
/// model's input once pattern_address_match(p) is right.
inline smem::WarpRequest request_of_exercise(Pattern p) {
  return smem::WarpRequest::from_lanes(pattern_width(p), smem::Op::kLoad,
                                       [p](int t) { return ch01::pattern_address(p, t); });
}

}  // namespace ch01::spec
