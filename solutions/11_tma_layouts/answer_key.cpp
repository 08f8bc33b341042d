// Chapter 11's answer key (`<grader> lesson`, solution mode): the digests the host checks compare
// exercise 1 with are the reference solution's (this build links it), and those of the typical
// slips whose principle the feedback names. `ninja -C <build> answer-digests` rewrites them.
#include <vector>

#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch11 answer key: the answer digests are the reference's", "[lesson][digests]") {
  using ch11::TmaSwizzle;
  using ch11::spec::LayoutCase;
  std::vector<grader::DigestCase> right;
  std::vector<lesson::Slip> slips;
  for (const LayoutCase& c : ch11::spec::layout_cases()) {
    right.push_back(ch11::spec::layout_case(c, ch11::tma_smem_offset));
    if (c.mode == TmaSwizzle::kNone) continue;
    const int bits = static_cast<int>(c.mode), span = ch11::spec::widest_row(c.mode);
    const int chunk_bits = ((1 << bits) - 1) << 4;
    const auto slip = [&](const char* name, auto offset_fn) {
      grader::DigestCase values = ch11::spec::layout_case(c, offset_fn);
      if (values.values != right.back().values) slips.push_back({name, values});
    };
    // The chunk XORed with the box row, as if every box row were a 128-byte line.
    slip("xor_with_box_row", [&](TmaSwizzle, int, int row, int byte) {
      return (row * span + byte) ^ ((row << 4) & chunk_bits);
    });
    // The box dense, row after row, and the swizzle applied to that: a narrow row given only
    // its own bytes instead of the whole span.
    if (c.row_bytes < span) {
      slip("dense_box", [&](TmaSwizzle, int row_bytes, int row, int byte) {
        const int dense = row * row_bytes + byte;
        return dense ^ ((dense >> 3) & chunk_bits);
      });
    }
  }
  lesson::check_answer_digests(right, slips, grader::chapter::kAnswerDigests);
}
