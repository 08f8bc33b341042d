// Chapter 10's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same functions and kernel on cases the hand-out's checks do not try: a
// swizzle tuned to the local parameters, or a kernel tuned to the local shapes, loses these
// points.
#include <random>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"
#include "grader/10_ldmatrix_swizzle/feed_spec.hpp"
#include "grader/10_ldmatrix_swizzle/gemm_check.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/subject_link.hpp"

namespace {

// Swizzle<B, M, S>, bit by bit: bit i of the result is bit i of `offset`, XORed with bit i + S
// when M <= i < M + B.
int swizzle_bit_by_bit(int b, int m, int s, int offset) {
  int out = offset;
  for (int i = m; i < m + b; ++i) out ^= ((offset >> (i + s)) & 1) << i;
  return out;
}

}  // namespace

WORKBOOK_CHECK(hidden_swizzle) {
  // B up to 6, M up to 6, S up to 9 (B <= S): every offset of two periods where a period is
  // short, random ones (up to 2^30) otherwise and for every parameter set.
  std::mt19937 rng(grader::hidden_seed(1001));
  for (int b = 0; b <= 6; ++b) {
    for (int m = 0; m <= 6; ++m) {
      for (int s = b; s <= 9; ++s) {
        std::vector<int> offsets;
        const int bits = b + m + s;
        if (bits <= 14) {
          for (int o = 0; o < 2 << bits; ++o) offsets.push_back(o);
        }
        for (int k = 0; k < 2048; ++k) offsets.push_back(static_cast<int>(rng() % (1u << 30)));
        int wrong = -1, got = 0;
        grader::subject::for_each_call(
            ch10::swizzle,
            [&](auto ask) {
              for (int o : offsets) ask(b, m, s, o);
            },
            [&](int value, int, int, int, int o) {
              if (wrong < 0 && value != swizzle_bit_by_bit(b, m, s, o)) wrong = o, got = value;
            });
        if (wrong < 0) continue;
        GRADER_FAIL(grader::Feedback("swizzle(" + std::to_string(b) + ", " + std::to_string(m) +
                                     ", " + std::to_string(s) + ", " + std::to_string(wrong) +
                                     ") is " + std::to_string(got) + ", not Swizzle<" +
                                     std::to_string(b) + ", " + std::to_string(m) + ", " +
                                     std::to_string(s) + ">.")
                        .hint("swizzle must hold for every B <= S, any M and any offset >= 0, "
                              "not only for the parameters the tiles use."));
      }
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_chosen_swizzle) {
  // The contract's widest rows, which no local check asks: a table of the local widths' answers
  // (or one swizzle that happens to serve them all) has no rule for these.
  if (!ch10::spec::swizzle_right()) {
    GRADER_FAIL(
        grader::Feedback("chosen_swizzle is checked on wider rows once exercise 1 "
                         "(swizzle) is right."));
  }
  for (int row_bytes : {512, 1024}) {
    if (const auto problem = ch10::spec::chosen_swizzle_problem(row_bytes)) {
      GRADER_FAIL(grader::Feedback(*problem).line(
          "chosen_swizzle must hold for every power of two from 32 to 1024 bytes: where do a "
          "row's low bits start in a byte offset?"));
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_tc_gemm) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(8, "cp.async and mma.sync.m16n8k16");
  if (const auto fault = ch10::feed::feed_fault()) {
    GRADER_FAIL(grader::not_run_while_invalid(*fault, "ch10 exercise 3a"));
  }
  // Wide and tall grids, one K-step and K-steps that are not a multiple of the stages, against
  // fp64 on every entry.
  std::mt19937_64 rng(grader::hidden_seed(1002));
  const int shapes[][3] = {{128, 1280, 64}, {1152, 128, 448}, {384, 256, 1600}, {640, 384, 192}};
  for (const auto& s : shapes) {
    const auto problem = ch10::check::check_against_fp64(
        ch10::probes::launch_yours_on_poisoned_shared, "tc_gemm_kernel",
        ch10::check::random_problem(s[0], s[1], s[2], rng));
    if (problem) GRADER_FAIL(*problem);
  }
  SUCCEED();
}
