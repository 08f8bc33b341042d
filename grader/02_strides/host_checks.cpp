// Chapter 02 host checks: the gcd law against the bank model, and the layout of exercise 3.
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "grader/02_strides/layout_check.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/variant.hpp"

WORKBOOK_CHECK(ex1) {
  std::vector<ch02::spec::StrideCase> cases = ch02::spec::graded_strides();
  for (const ch02::spec::StrideCase& c : ch02::spec::fresh_strides()) cases.push_back(c);
  const auto problem = ch02::spec::gcd_law_problem(cases);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_layout) {
  // staged_words() is checked before anything is sized from it.
  if (const auto fault = ch02::checks::layout_fault(ch02::kThreads)) {
    GRADER_FAIL(ch02::checks::layout_feedback(*fault));
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex3) {
  // Only a valid layout has conflicts to count: one that sends every lane to one word is a
  // broadcast, one wavefront, and keeps nothing.
  if (const auto fault = ch02::checks::layout_fault(ch02::kThreads)) {
    GRADER_FAIL(grader::not_judged_while_invalid(fault->fact, ch02::checks::kLayoutCheck));
  }
  if (auto problem = ch02::checks::conflict_problem(ch02::kThreads)) GRADER_FAIL(*problem);
  // The rule: blocks of fresh sizes each run draws (official grading asks larger blocks, which
  // no local run asks).
  grader::variant::Draw draw = grader::variant::fresh_draw("ch02 block");
  for (int n = 0; n < 2; ++n) {
    const int threads = 32 * draw.between(1, ch02::checks::kThreadsAskedLocally / 32);
    if (const auto fault = ch02::checks::layout_fault(threads)) {
      GRADER_FAIL(ch02::checks::layout_feedback(*fault));
    }
    if (auto problem = ch02::checks::conflict_problem(threads)) GRADER_FAIL(*problem);
  }
  SUCCEED();
}
