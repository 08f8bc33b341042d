// Chapter 02 host checks: the gcd law against the bank model, and the layout of exercise 3.
#include <algorithm>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/gcd_law_check.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("ch02 exercise 1: the gcd law for floats, shorts and bytes", "[host]") {
  const auto problem = ch02::spec::gcd_law_problem(ch02::spec::graded_strides());
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch02 exercise 3: the staged layout is a bijection that fits", "[host]") {
  const int words = ch02::staged_words();
  const int limit = 48 * 1024 / 4;
  GRADER_EXPECT(words > 0 && words <= limit,
                grader::Feedback("staged_words() is " + std::to_string(words) +
                                 "; it must be between 1 and " + std::to_string(limit) +
                                 " (48 KiB of shared memory).")
                    .hint("the layout needs at least 256 x 32 words."));
  std::vector<int> owner_of(static_cast<size_t>(std::max(words, 1)), -1);
  for (int owner = 0; owner < ch02::kThreads; ++owner) {
    for (int i = 0; i < ch02::kValuesPerThread; ++i) {
      const int w = ch02::staged_index(owner, i);
      if (w < 0 || w >= words) {
        GRADER_FAIL(grader::Feedback("staged_index(" + std::to_string(owner) + ", " +
                                     std::to_string(i) + ") is " + std::to_string(w) +
                                     ", outside [0, staged_words() = " + std::to_string(words) +
                                     ").")
                        .hint("staged_words() must cover every index the layout uses."));
      }
      if (owner_of[w] >= 0) {
        GRADER_FAIL(grader::Feedback("staged_index(" + std::to_string(owner) + ", " +
                                     std::to_string(i) + ") is word " + std::to_string(w) +
                                     ", which an earlier (owner, value) already uses.")
                        .hint("two values in one word overwrite each other: the layout must "
                              "be a bijection."));
      }
      owner_of[w] = owner;
    }
  }
  SUCCEED();
}

TEST_CASE("ch02 exercise 3: staging stores and sum loads are conflict-free", "[host]") {
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
                        .hint("a warp stores ONE owner's 32 values at once; an element-major "
                              "layout (i * 256 + owner) moves the conflict here."));
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
                        .hint("thread-major rows of 32 words put value i of every owner in bank "
                              "i: the gcd law with stride 32. Which row length is odd?"));
      }
    }
  }
  SUCCEED();
}
