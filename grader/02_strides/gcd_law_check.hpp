// Chapter 02: exercise 1's judgement, for the hand-out's strides and for official grading's
// others alike: the student's predictions against the bank model, request by request, and the
// principle the first wrong one missed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/prediction_check.hpp"

namespace ch02::spec {

/// "predicted_wavefronts(STRIDE, BYTES)".
inline std::string call_of(const StrideCase& c) {
  return "predicted_wavefronts(" + std::to_string(c.stride) + ", " +
         std::to_string(c.element_bytes) + ")";
}

/// The feedback for the first of `cases` that the exercise mispredicts, or nothing.
inline std::optional<grader::Feedback> gcd_law_problem(const std::vector<StrideCase>& cases) {
  int wrong = 0;
  StrideCase first{};
  for (const StrideCase& c : cases) {
    const int model = smem::analyze(stride_request(c.stride, c.element_bytes)).wavefronts;
    if (ch02::predicted_wavefronts(c.stride, c.element_bytes) != model && wrong++ == 0) first = c;
  }
  if (wrong == 0) return std::nullopt;
  const smem::WarpRequest r = stride_request(first.stride, first.element_bytes);
  const int predicted = ch02::predicted_wavefronts(first.stride, first.element_bytes);
  const int model = smem::analyze(r).wavefronts;
  const long long byte_stride = 1LL * first.stride * first.element_bytes;
  std::string principle;
  if (first.stride == 0) {
    principle = "Stride 0: every lane reads the same word, a broadcast.";
  } else if (byte_stride < 4) {
    principle =
        "A byte stride below 4 puts several lanes on each word, and the 32 lanes stay "
        "inside 32 consecutive words.";
  } else if (first.element_bytes < 4 &&
             predicted == smem::analyze(stride_request(first.stride, 4)).wavefronts) {
    principle =
        "You applied the law to the stride in elements. Banks hold 4-byte words: count "
        "the stride in words, stride * element_bytes / 4.";
  }
  grader::Feedback f = grader::prediction_feedback(
      call_of(first), predicted, model, ch02::kNotImplemented, r, principle,
      "lanes t and u meet in a bank when the word stride * (t - u) is a multiple of 32; count "
      "how many lanes share each bank, and remember that only distinct words cost.");
  if (predicted != ch02::kNotImplemented) {
    f.line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
           " graded (stride, element size) pairs are mispredicted; this is the first.");
  }
  return f;
}

}  // namespace ch02::spec
