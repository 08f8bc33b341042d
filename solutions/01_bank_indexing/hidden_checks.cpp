// Chapter 01's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same functions on cases the hand-out's checks do not try: a bank_of or a
// warp_wavefronts tuned to the local cases loses these points.
#include <random>
#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/device_probes.hpp"
#include "grader/01_bank_indexing/pattern_cases.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"

WORKBOOK_CHECK(hidden_bank_of) {
  // Addresses around every power of two (where a signed or narrowed cast goes wrong), and
  // random ones from a seed of official grading's own.
  std::vector<unsigned> addresses;
  for (int bit = 0; bit < 32; ++bit) {
    const unsigned power = 1u << bit;
    for (unsigned d : {0u, 1u, 2u, 3u, 4u, 127u, 128u, 129u}) {
      addresses.push_back(power + d);
      addresses.push_back(power - d);
    }
  }
  std::mt19937 rng(grader::hidden_seed(101));
  for (int i = 0; i < 20000; ++i) addresses.push_back(static_cast<unsigned>(rng()));
  for (unsigned a : addresses) {
    if (ch01::bank_of(a) == smem::bank_of(a)) continue;
    GRADER_FAIL(grader::Feedback("bank_of(" + std::to_string(a) + ") is " +
                                 std::to_string(ch01::bank_of(a)) + "; that byte lies in bank " +
                                 std::to_string(smem::bank_of(a)) + ".")
                    .hint("bank_of must hold for every unsigned address, the largest included."));
  }
  SUCCEED();
}

namespace {
// The byte lane t reads in case c, from the declarations of bank_indexing.cuh.
unsigned declared_address(const ch01::PatternCase& c, int t) {
  switch (c.pattern) {
    case ch01::Pattern::kReversedFloats: return 4u * (c.n - t);
    case ch01::Pattern::kFewFloatsShared: return 4u * (t % c.n);
    case ch01::Pattern::kWordsInOneBank: return 4u * (c.m + 32 * (t % c.n));
    case ch01::Pattern::kBytesStride: return static_cast<unsigned>(c.n * t);
    case ch01::Pattern::kShortsStride: return 2u * c.n * t;
    default: return 4u * (c.n * t + c.m);  // a float stride (m = 0), a member, a tile's column
  }
}

// Cases of every pattern at parameters no variant draws (n past the drawn ones), each pattern's
// largest first, then random ones from official grading's seed: a table of the digests'
// addresses, or of the numbers revealed for the drawn cases, fails on them.
std::vector<ch01::PatternCase> undrawn_cases() {
  std::mt19937 rng(grader::hidden_seed(103));
  std::vector<ch01::PatternCase> out;
  for (int i = 0; i < 20 * ch01::kPatternCount; ++i) {
    const ch01::Pattern p = ch01::kAllPatterns[i % ch01::kPatternCount];
    const int lo = p == ch01::Pattern::kReversedFloats    ? 31
                   : p == ch01::Pattern::kFewFloatsShared ? 17
                   : p == ch01::Pattern::kStructMember    ? 9
                                                          : 129;
    const int span = lo == 129 ? 272 : lo == 9 ? 18 : 33;  // the first nine: each range's top
    const int n = lo + (i < ch01::kPatternCount ? span - 1 : static_cast<int>(rng() % span));
    const int m = ch01::spec::has_m(p)
                      ? static_cast<int>(rng() % (p == ch01::Pattern::kWordsInOneBank ? 32 : n))
                      : 0;
    out.push_back({p, n, m});
  }
  return out;
}
}  // namespace

WORKBOOK_CHECK(hidden_pattern_address) {
  for (const ch01::PatternCase& c : undrawn_cases()) {
    for (int t = 0; t < 32; ++t) {
      if (ch01::pattern_address(c, t) == declared_address(c, t)) continue;
      GRADER_FAIL(grader::Feedback("pattern_address is wrong for " + ch01::pattern_description(c) +
                                   ": lane " + std::to_string(t) + " gets " +
                                   std::to_string(ch01::pattern_address(c, t)) + ".")
                      .hint("compute the address from the declaration for any parameters."));
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_predictions) {
  for (const ch01::PatternCase& c : undrawn_cases()) {
    const auto request =
        smem::WarpRequest::from_lanes(ch01::pattern_width(c.pattern), smem::Op::kLoad,
                                      [&](int t) { return declared_address(c, t); });
    const int got = ch01::predicted_wavefronts(c);
    if (got == smem::analyze(request).wavefronts) continue;
    GRADER_FAIL(grader::Feedback("predicted_wavefronts is " + std::to_string(got) + " for " +
                                 ch01::pattern_description(c) + ", not the bank model's count.")
                    .hint("a rule holds for any parameters: count distinct words per bank."));
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_warp_wavefronts) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Whole warps in one bank, long word strides, and words spread over 48 KiB.
  std::mt19937_64 rng(grader::hidden_seed(102));
  std::vector<unsigned> addresses;
  std::vector<std::string> kinds;
  const auto add = [&](const std::string& kind, auto address_of) {
    for (int t = 0; t < 32; ++t) addresses.push_back(static_cast<unsigned>(address_of(t)));
    kinds.push_back(kind);
  };
  for (int words = 1; words <= 32; ++words) {
    add("32 lanes on " + std::to_string(words) + " words of bank 5",
        [&](int t) { return 4 * (5 + 32 * (t % words)); });
  }
  for (unsigned stride = 65; stride <= 1024; stride += 37) {
    add("word stride " + std::to_string(stride), [&](int t) { return 4 * stride * t; });
  }
  for (int i = 0; i < 300; ++i) {
    add("random words in 48 KiB", [&](int) { return 4 * (rng() % 12288); });
    add("random bytes in 48 KiB", [&](int) { return rng() % 49152; });
  }
  const std::vector<int> got = ch01::probes::device_warp_wavefronts(addresses);
  for (std::size_t w = 0; w < kinds.size(); ++w) {
    const auto request = smem::WarpRequest::from_lanes(
        4, smem::Op::kLoad, [&](int t) { return addresses[w * 32 + t] & ~3u; });
    const int want = smem::analyze(request).wavefronts;
    for (int t = 0; t < 32; ++t) {
      if (got[w * 32 + t] == want) continue;
      GRADER_FAIL(grader::Feedback("warp_wavefronts is wrong for a warp of " + kinds[w] +
                                   ": lane " + std::to_string(t) + " returned " +
                                   std::to_string(got[w * 32 + t]) + ".")
                      .picture(grader::draw(request))
                      .hint("count distinct words per bank for any addresses a warp can give."));
    }
  }
  SUCCEED();
}
