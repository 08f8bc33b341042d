// Chapter 01's answer key (`<grader> lesson`, solution mode): the digests the host checks compare
// exercise 2 with are the reference solution's (this build links it), for every case any
// variant draws (pattern_cases.hpp: every_drawable_case), and those of the typical slips whose
// principle the feedback names. `ninja -C <build> answer-digests` rewrites them.
#include <vector>

#include "grader/01_bank_indexing/answer_cases.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch01 answer key: the answer digests are the reference's", "[lesson][digests]") {
  using ch01::Pattern;
  using ch01::PatternCase;
  std::vector<grader::DigestCase> right;
  std::vector<lesson::Slip> slips;
  const auto slip = [](const char* name, const PatternCase& c, auto address) {
    return lesson::Slip{name,
                        ch01::spec::pattern_address_case(c, [address](const PatternCase& q, int t) {
                          return address(q, static_cast<unsigned>(t));
                        })};
  };
  for (Pattern p : ch01::kAllPatterns) {
    for (const PatternCase& c : ch01::spec::every_drawable_case(p)) {
      right.push_back(ch01::spec::pattern_address_case(c, ch01::pattern_address));
    }
  }
  for (Pattern p : ch01::kAllPatterns) {
    for (const PatternCase& c : ch01::spec::every_drawable_case(p)) {
      if (p == Pattern::kStructMember) {
        // The struct's start: the member's offset left out.
        slips.push_back(slip("member_offset_missing", c, [](const PatternCase& q, unsigned t) {
          return 4 * static_cast<unsigned>(q.n) * t;
        }));
      }
      if (p == Pattern::kColumnOfTile || p == Pattern::kColumnOfPaddedTile) {
        // A row of 32 floats, whatever the declared width.
        slips.push_back(slip("unpadded_pitch", c, [](const PatternCase& q, unsigned t) {
          return 4 * (32 * t + static_cast<unsigned>(q.m));
        }));
      }
    }
  }
  lesson::check_answer_digests(right, slips, grader::chapter::kAnswerDigests);
}
