// Chapter 02: the question of exercise 1 (which strides it asks about, and their requests), for
// the host checks and the lesson checks alike, and its judgement, for the hand-out's strides and
// for official grading's others alike: the student's predictions against the bank model, the
// student's calculator, request by request, and the principle the first wrong one missed.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace ch02::spec {

/// A full warp where lane t loads element `stride * t` of an array of `element_bytes` elements.
inline smem::WarpRequest stride_request(int stride, int element_bytes) {
  return smem::WarpRequest::from_lanes(
      element_bytes, smem::Op::kLoad,
      [stride, element_bytes](int t) { return 1LL * stride * element_bytes * t; });
}

/// One graded (stride, element size) pair.
struct StrideCase {
  int stride;
  int element_bytes;
};

/// The law applies: the byte stride is a multiple of 4, or below 4.
inline bool follows_the_law(int stride, int element_bytes) {
  const long long bytes = 1LL * stride * element_bytes;
  return bytes % 4 == 0 || bytes < 4;
}

/// The pairs the lessons work out in full (this chapter's floats at strides 0, 3, 32 and 33,
/// chapter 01's floats at strides 1 and 2 and its bytes at stride 1): no check grades them,
/// here or in official grading.
inline bool worked_by_the_lessons(int stride, int element_bytes) {
  if (element_bytes == 4) return stride <= 3 || stride == 32 || stride == 33;
  return element_bytes == 1 && stride == 1;
}

/// The strides 0..kLargestClassStride that a class variant's exercise 1 may grade for
/// `element_bytes`-byte elements: those that follow the law, less those the lessons work.
inline constexpr int kLargestClassStride = 384;  // lane 31 of floats: 46.5 KiB, under 48
/// How many strides of each element size a class variant grades.
inline constexpr int kClassStridesPerSize = 24;

inline std::vector<int> class_stride_domain(int element_bytes) {
  std::vector<int> strides;
  for (int stride = 0; stride <= kLargestClassStride; ++stride) {
    if (follows_the_law(stride, element_bytes) && !worked_by_the_lessons(stride, element_bytes)) {
      strides.push_back(stride);
    }
  }
  return strides;
}

/// The pairs exercise 1 answers for, for variant `v`. Self-study (the hand-out's own checks):
/// strides 0..64 of floats, shorts and bytes that follow the law, less those the lessons work.
/// A class variant: kClassStridesPerSize of each size's class_stride_domain, drawn.
inline std::vector<StrideCase> graded_strides(
    const grader::variant::Identity& v = grader::variant::current()) {
  std::vector<StrideCase> cases;
  grader::variant::Draw draw(v, "ch02 exercise 1");
  for (int bytes : {4, 2, 1}) {
    if (v.self_study()) {
      for (int stride = 0; stride <= 64; ++stride) {
        if (follows_the_law(stride, bytes) && !worked_by_the_lessons(stride, bytes)) {
          cases.push_back({stride, bytes});
        }
      }
    } else {
      for (int stride : draw.some(class_stride_domain(bytes), kClassStridesPerSize)) {
        cases.push_back({stride, bytes});
      }
    }
  }
  return cases;
}

/// Fresh pairs for exercise 1's rule (grader::variant::fresh_draw), eight of each element size
/// from its class_stride_domain: graded with the variant's, so that a table of the numbers a run
/// showed does not pass.
inline std::vector<StrideCase> fresh_strides() {
  grader::variant::Draw draw = grader::variant::fresh_draw("ch02");
  std::vector<StrideCase> cases;
  for (int bytes : {4, 2, 1}) {
    for (int stride : draw.some(class_stride_domain(bytes), 8)) cases.push_back({stride, bytes});
  }
  return cases;
}

/// The 16 strides (words, 0..64: every `31 * stride` lies inside the probe's words) exercise
/// 2's microbenchmark is timed and counted at. Self-study: the committed ones. A class variant:
/// an odd stride (one wavefront), one of 32 and 64 (32), one of 16 and 48 (16), and 13 more of
/// 2..63, so that the fit always spans one to 32 wavefronts.
inline std::vector<int> probe_strides(
    const grader::variant::Identity& v = grader::variant::current()) {
  if (v.self_study()) return {0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 31, 32, 33, 48, 64};
  grader::variant::Draw draw(v, "ch02 exercise 2");
  std::vector<int> odd, others;
  for (int s = 5; s <= 63; s += 2) odd.push_back(s);
  std::vector<int> strides{draw.pick(odd), draw.pick(std::vector<int>{32, 64}),
                           draw.pick(std::vector<int>{16, 48})};
  for (int s = 2; s <= 63; ++s) {
    if (std::find(strides.begin(), strides.end(), s) == strides.end()) others.push_back(s);
  }
  for (int s : draw.some(others, 13)) strides.push_back(s);
  std::sort(strides.begin(), strides.end());
  return strides;
}

/// "stride 6 of 4-byte elements".
inline std::string describe(const StrideCase& c) {
  return "stride " + std::to_string(c.stride) + " of " + std::to_string(c.element_bytes) +
         "-byte elements";
}

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
