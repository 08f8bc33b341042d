// Chapter 10's answer key (`<grader> lesson`, solution mode): the digests the host checks compare
// exercise 1 with are the reference solution's (this build links it), and those of the typical
// slips whose principle the feedback names. `ninja -C <build> answer-digests` rewrites them.
#include <vector>

#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch10 answer key: the answer digests are the reference's", "[lesson][digests]") {
  using ch10::spec::SwizzleCase;
  std::vector<grader::DigestCase> right;
  std::vector<lesson::Slip> slips;
  for (const SwizzleCase& c : ch10::spec::swizzle_cases()) {
    right.push_back(ch10::spec::swizzle_case(c, ch10::swizzle));
    const auto slip = [&](const char* name, auto swizzle_fn) {
      grader::DigestCase values = ch10::spec::swizzle_case(c, swizzle_fn);
      if (values.values != right.back().values) slips.push_back({name, values});
    };
    // The XOR the other way round: the column bits XORed into the row bits.
    slip("other_way",
         [](int b, int m, int s, int o) { return o ^ ((o & (((1 << b) - 1) << m)) << s); });
    // The row bits read from bit S instead of bit M + S.
    slip("row_bits_at_s",
         [](int b, int m, int s, int o) { return o ^ (((o >> s) & ((1 << b) - 1)) << m); });
  }
  lesson::check_answer_digests(right, slips, grader::chapter::kAnswerDigests);
}
