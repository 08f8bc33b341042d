// Chapter 01 host checks: exercises 1-3 against the bank model, no GPU needed.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/pattern_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

using ch01::Pattern;

// Lanes that share a bank, counted as if every lane needed its own pass (the usual slip).
int lanes_in_busiest_bank(Pattern p) {
  int count[smem::kNumBanks] = {};
  int most = 0;
  for (int t = 0; t < smem::kWarpSize; ++t) {
    most = std::max(most, ++count[smem::bank_of(ch01::spec::expected_address(p, t))]);
  }
  return most;
}

}  // namespace

TEST_CASE("ch01 exercise 1: bank_of gives the bank of a byte address", "[host]") {
  std::vector<unsigned> addresses;
  for (unsigned a = 0; a < 1024; ++a) addresses.push_back(a);
  std::mt19937 rng(12345);
  for (int i = 0; i < 4096; ++i) addresses.push_back(static_cast<unsigned>(rng()));
  int wrong = 0;
  unsigned first = 0;
  for (unsigned a : addresses) {
    if (ch01::bank_of(a) != smem::bank_of(a) && wrong++ == 0) first = a;
  }
  const int got = ch01::bank_of(first);
  grader::Feedback f("bank_of(" + std::to_string(first) + ") returned " + std::to_string(got) +
                     ", but the byte at address " + std::to_string(first) + " lies in bank " +
                     std::to_string(smem::bank_of(first)) + ".");
  f.line(std::to_string(wrong) + " of " + std::to_string(addresses.size()) +
         " addresses tried got the wrong bank.");
  if (got == ch01::kNotImplemented) {
    f.line("bank_of is not implemented yet (it returns kNotImplemented).");
  } else if (got == static_cast<int>(first % 32)) {
    f.line("You returned address % 32: that numbers bytes, but banks hold 4-byte words.");
  }
  f.line("Address " + std::to_string(first) + " is in 4-byte word " + std::to_string(first / 4) +
         ", and word w lives in bank w % 32.");
  f.hint("bytes 0-3 are bank 0, bytes 4-7 bank 1, ..., bytes 124-127 bank 31, byte 128 bank 0.");
  GRADER_EXPECT(wrong == 0, f);
}

TEST_CASE("ch01 exercise 2: pattern_address follows the declarations", "[host]") {
  for (Pattern p : ch01::kAllPatterns) {
    int first_wrong = -1;
    for (int t = 0; t < 32 && first_wrong < 0; ++t) {
      if (ch01::pattern_address(p, t) != ch01::spec::expected_address(p, t)) first_wrong = t;
    }
    if (first_wrong < 0) {
      SUCCEED();
      continue;
    }
    const unsigned got = ch01::pattern_address(p, first_wrong);
    grader::Feedback f(std::string("pattern_address(") + ch01::spec::name(p) + ", lane " +
                       std::to_string(first_wrong) + ") is wrong.");
    f.line(std::string("pattern: ") + ch01::pattern_description(p));
    if (got == ch01::kNoAddress) {
      f.line("not implemented yet (it returns kNoAddress)");
    } else {
      f.line("returned byte address " + std::to_string(got) + ", expected " +
             std::to_string(ch01::spec::expected_address(p, first_wrong)));
    }
    f.hint(
        "byte address = index * sizeof(element); a row of T tile[R][C] is C * sizeof(T) "
        "bytes; a struct member adds its offset inside the struct.");
    GRADER_EXPECT(false, f);
  }
}

TEST_CASE("ch01 exercise 3: predicted wavefronts match the bank model", "[host]") {
  for (Pattern p : ch01::kAllPatterns) {
    const smem::Analysis model = smem::analyze(ch01::spec::request(p));
    const int predicted = ch01::predicted_wavefronts(p);
    if (predicted == model.wavefronts) {
      SUCCEED();
      continue;
    }
    const std::string principle =
        predicted == lanes_in_busiest_bank(p)
            ? "You counted lanes per bank. Lanes that touch the same 4-byte word share one "
              "pass (a broadcast): count distinct words."
            : "";
    grader::Feedback f = grader::prediction_feedback(
        std::string("predicted_wavefronts(") + ch01::spec::name(p) + ")", predicted,
        model.wavefronts, ch01::kNotImplemented, ch01::spec::request(p), principle,
        "for each bank, count the distinct 4-byte words the warp touches in it; the request "
        "takes as many wavefronts as the busiest bank has words.");
    if (predicted != ch01::kNotImplemented) {
      f.line(std::string("pattern: ") + ch01::pattern_description(p));
    }
    GRADER_EXPECT(false, f);
  }
}
