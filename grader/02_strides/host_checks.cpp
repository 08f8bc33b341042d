// Chapter 02 host checks: the gcd law against the bank model, and the layout of exercise 3.
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/gcd_law_check.hpp"
#include "grader/02_strides/layout_check.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"

WORKBOOK_CHECK(ex1) {
  std::vector<ch02::spec::StrideCase> cases = ch02::spec::graded_strides();
  for (const ch02::spec::StrideCase& c : ch02::spec::fresh_strides()) cases.push_back(c);
  const auto problem = ch02::spec::gcd_law_problem(cases);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_layout) {
  // staged_words() is checked before anything is sized from it.
  if (const auto fault = ch02::checks::layout_fault()) {
    GRADER_FAIL(ch02::checks::layout_feedback(*fault));
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex3) {
  // Only a valid layout has conflicts to count: one that sends every lane to one word is a
  // broadcast, one wavefront, and keeps nothing.
  if (const auto fault = ch02::checks::layout_fault()) {
    GRADER_FAIL(grader::not_judged_while_invalid(fault->fact, ch02::checks::kLayoutCheck));
  }
  // Staging: warp w of the block, round k, stores the 32 values of owner 8k + w.
  for (int k = 0; k < ch02::kValuesPerThread; ++k) {
    for (int w = 0; w < ch02::kThreads / 32; ++w) {
      const int owner = 8 * k + w;
      const auto r = smem::WarpRequest::from_lanes(
          4, smem::Op::kStore, [&](int t) { return 4LL * ch02::staged_index(owner, t); });
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts != 1) {
        GRADER_FAIL(grader::Feedback("The staging stores conflict: warp " + std::to_string(w) +
                                     " storing the 32 values of owner " + std::to_string(owner) +
                                     " takes " + std::to_string(a.wavefronts) + " wavefronts.")
                        .picture(grader::draw(r))
                        .hint("a warp stores ONE owner's 32 values at once: they must fall in "
                              "32 different banks, as the 32 owners' values the sum loop reads "
                              "together must. A layout that mends one loop may break the "
                              "other."));
      }
    }
  }
  // Sum: warp w reads value i of owners 32w .. 32w + 31.
  for (int w = 0; w < ch02::kThreads / 32; ++w) {
    for (int i = 0; i < ch02::kValuesPerThread; ++i) {
      const auto r = smem::WarpRequest::from_lanes(
          4, smem::Op::kLoad, [&](int t) { return 4LL * ch02::staged_index(32 * w + t, i); });
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts != 1) {
        GRADER_FAIL(grader::Feedback("The sum loads conflict: warp " + std::to_string(w) +
                                     " reading value " + std::to_string(i) +
                                     " of its 32 owners takes " + std::to_string(a.wavefronts) +
                                     " wavefronts.")
                        .picture(grader::draw(r))
                        .hint("a warp reads value i of 32 owners: words as far apart as one "
                              "owner's row is long, so the gcd law (section 1) prices it by that "
                              "stride. Worked on another layout: 64 owners of 8 values, read "
                              "value by value, are a stride of 8 words, gcd(8, 32) = 8-way."));
      }
    }
  }
  SUCCEED();
}
