// Chapter 01 host checks: exercises 1-3 against the bank model, no GPU needed.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/answer_cases.hpp"
#include "grader/01_bank_indexing/pattern_cases.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch01::Pattern;
using ch01::PatternCase;

// Lanes that share a bank, counted as if every lane needed its own pass (the usual slip), in
// the exercise's own addresses.
int lanes_in_busiest_bank(const PatternCase& c) {
  int count[smem::kNumBanks] = {};
  int most = 0;
  for (int t = 0; t < smem::kWarpSize; ++t) {
    most = std::max(most, ++count[smem::bank_of(ch01::pattern_address(c, t))]);
  }
  return most;
}

// What a typical slip of exercise 2 missed in case `c` (the answer key lists their digests),
// or "".
std::string principle_of_slip(const std::string& slip, const PatternCase& c) {
  if (slip == "member_offset_missing") {
    return "Those are the addresses of the struct's start. The field " +
           ch01::struct_member_name(c.n, c.m) + " sits " + std::to_string(4 * c.m) +
           " bytes into the struct: add its offset.";
  }
  if (slip == "unpadded_pitch") {
    return "Those are the addresses of a row of 32 floats. A row of the declared tile holds as "
           "many floats as its second dimension says.";
  }
  return "";
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  std::vector<unsigned> addresses;
  for (unsigned a = 0; a < 1024; ++a) addresses.push_back(a);
  std::mt19937 rng(ch01::spec::bank_of_seed(grader::variant::current()));
  for (int i = 0; i < 4096; ++i) addresses.push_back(static_cast<unsigned>(rng()));
  int wrong = 0;
  unsigned first = 0;
  for (unsigned a : addresses) {
    if (ch01::bank_of(a) != smem::bank_of(a) && wrong++ == 0) first = a;
  }
  const int got = ch01::bank_of(first);
  grader::Feedback f("bank_of(" + std::to_string(first) + ") returned " + std::to_string(got) +
                     ", which is not the bank of the byte at address " + std::to_string(first) +
                     ".");
  f.line(std::to_string(wrong) + " of " + std::to_string(addresses.size()) +
         " addresses tried got the wrong bank.");
  if (got == ch01::kNotImplemented) {
    f.line("bank_of is not implemented yet (it returns kNotImplemented).");
  } else if (got == static_cast<int>(first % 32)) {
    f.line("You returned address % 32: that numbers bytes, but banks hold 4-byte words.");
  }
  f.reveal("The byte at address " + std::to_string(first) + " lies in bank " +
           std::to_string(smem::bank_of(first)) + ": it is in 4-byte word " +
           std::to_string(first / 4) + ", and word w lives in bank w % 32.");
  f.hint(
      "a bank is one word wide, and words go to the banks in turn, round and round: on a "
      "GPU of 16 banks of 8-byte words, byte 200 is in word 25, bank 9.");
  GRADER_EXPECT(wrong == 0, f);
}

WORKBOOK_CHECK(ex2) {
  for (const PatternCase& c : ch01::spec::pattern_cases(grader::variant::current())) {
    const Pattern p = c.pattern;
    const grader::DigestMatch match = ch01::spec::pattern_address_match(c);
    if (match.right) {
      SUCCEED();
      continue;
    }
    grader::Feedback f(std::string("pattern_address(") + ch01::spec::name(p) +
                       ", lane) is wrong for some lanes of your case (n = " + std::to_string(c.n) +
                       (ch01::spec::has_m(p) ? ", m = " + std::to_string(c.m) : std::string()) +
                       ").");
    f.line("pattern: " + ch01::pattern_description(c));
    std::string first;
    bool none = true, misaligned = false;
    const unsigned width = static_cast<unsigned>(ch01::pattern_width(p));
    for (int t = 0; t < 32; ++t) {
      const unsigned a = ch01::pattern_address(c, t);
      none = none && a == ch01::kNoAddress;
      misaligned = misaligned || (a != ch01::kNoAddress && a % width != 0);
      if (t < 4) first += (t ? ", " : "") + std::to_string(a);
    }
    if (none) {
      f.line("not implemented yet (it returns kNoAddress)");
    } else {
      f.line("lanes 0-3 return " + first + ".");
      // The element index where the byte offset belongs: the right digest, times sizeof.
      grader::DigestCase scaled =
          ch01::spec::pattern_address_case(c, [width](const PatternCase& q, int t) {
            return static_cast<long long>(ch01::pattern_address(q, t)) * width;
          });
      if (width > 1 && grader::match_digest(grader::chapter::kAnswerDigests, scaled).right) {
        f.line("Those are element indices: a byte address is index * sizeof(element).");
      } else if (misaligned) {
        f.line("Some addresses are not multiples of " + std::to_string(width) +
               ", the element size: every element starts at index * sizeof(element).");
      } else if (!match.slip.empty()) {
        f.line(principle_of_slip(match.slip, c));
      }
    }
    f.hint(
        "byte address = index * sizeof(element); a row of T tile[R][C] is C * sizeof(T) "
        "bytes; a struct member adds its offset inside the struct. Write it for any n and m: "
        "use c.n and c.m.");
    GRADER_EXPECT(false, f);
  }
}

WORKBOOK_CHECK(ex3) {
  // Each pattern at your variant's case, then at two fresh ones: the rule is graded.
  const std::vector<PatternCase> own = ch01::spec::pattern_cases(grader::variant::current());
  const std::vector<PatternCase> fresh =
      ch01::spec::fresh_pattern_cases(grader::variant::current());
  for (std::size_t i = 0; i < own.size(); ++i) {
    const std::string call =
        std::string("predicted_wavefronts(c) for ") + ch01::spec::name(own[i].pattern);
    const PatternCase cases[] = {own[i], fresh[2 * i], fresh[2 * i + 1]};
    for (const PatternCase& c : cases) {
      const int predicted = ch01::predicted_wavefronts(c);
      if (predicted == ch01::kNotImplemented) {
        GRADER_EXPECT(false, grader::unfilled_prediction(call));
        break;
      }
      // The grader asks the bank model about the case through exercise 2's addresses, once
      // they are right: it holds no list of them.
      if (!ch01::spec::pattern_address_match(c).right) {
        GRADER_EXPECT(false, grader::Feedback(call + " is checked once pattern_address(" +
                                              ch01::spec::case_name(c) + ", lane) is right.")
                                 .hint(&c == cases ? "the grader computes each case's cost "
                                                     "from your exercise 2; see its check above."
                                                   : "exercise 2 grades your own case only; "
                                                     "write it for any n and m."));
        break;
      }
      const smem::WarpRequest request = ch01::spec::request_of_exercise(c);
      const smem::Analysis model = smem::analyze(request);
      if (predicted == model.wavefronts) continue;
      const std::string principle =
          predicted == lanes_in_busiest_bank(c)
              ? "You counted lanes per bank. Lanes that touch the same 4-byte word share one "
                "pass (a broadcast): count distinct words."
              : "";
      grader::Feedback f = grader::prediction_feedback(
          call, predicted, model.wavefronts, ch01::kNotImplemented, request, principle,
          "for each bank, count the distinct 4-byte words the warp touches in it; the request "
          "takes as many wavefronts as the busiest bank has words. Then say it for any n and m.");
      f.line("the case: " + ch01::pattern_description(c) +
             (&c == cases ? ", your variant's" : ", a fresh one (your rule is right before it)"));
      GRADER_EXPECT(false, f);
      break;
    }
  }
  SUCCEED();
}
