// Chapter 01's answer key (`<grader> lesson`, solution mode): the digests the host checks compare
// exercise 2 with are the reference solution's (this build links it), and those of the typical
// slips whose principle the feedback names. `ninja -C <build> answer-digests` rewrites them.
#include <vector>

#include "grader/01_bank_indexing/answer_cases.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch01 answer key: the answer digests are the reference's", "[lesson][digests]") {
  using ch01::Pattern;
  std::vector<grader::DigestCase> right;
  for (Pattern p : ch01::kAllPatterns) {
    right.push_back(ch01::spec::pattern_address_case(p, ch01::pattern_address));
  }
  const auto slip = [](const char* name, Pattern p, auto address) {
    return lesson::Slip{name, ch01::spec::pattern_address_case(
                                  p, [address](Pattern, int t) { return address(t); })};
  };
  const std::vector<lesson::Slip> slips = {
      slip("member_offset_missing", Pattern::kStructOfThree, [](int t) { return 12 * t; }),
      slip("unpadded_pitch", Pattern::kColumnOf32x34, [](int t) { return 4 * (32 * t + 1); }),
      slip("unpadded_pitch", Pattern::kColumnOf32x16, [](int t) { return 4 * (32 * t + 3); }),
  };
  lesson::check_answer_digests(right, slips, grader::chapter::kAnswerDigests);
}
