// Chapter 03 host checks: predictions against the bank model, and the lookup table's layout.
#include <random>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/model/bank_model.hpp"
#include "grader/03_broadcast_multicast/pattern_spec.hpp"
#include "grader/03_broadcast_multicast/table_check.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch03::Pattern;
using ch03::spec::Keys;

// Judges predicted_wavefronts(p, c) against the bank model; true when it is right. A fresh
// case (one the run drew, not the variant's) says so.
bool judge_pattern(Pattern p, const ch03::PatternCase& c, bool fresh) {
  const smem::WarpRequest r = ch03::spec::request(c);
  const smem::Analysis a = smem::analyze(r);
  const int predicted = ch03::predicted_wavefronts(p, c);
  if (predicted == a.wavefronts) {
    SUCCEED();
    return true;
  }
  // Do lanes share a word here? Then the sharing is what a too-high prediction missed.
  bool shared = false;
  for (int t = 1; t < smem::kWarpSize && !shared; ++t) {
    shared = ch03::spec::address(c, t) / 4 == ch03::spec::address(c, 0) / 4 ||
             ch03::spec::address(c, t) / 4 == ch03::spec::address(c, t - 1) / 4;
  }
  // Where wide lane pairs do not merge, the first lanes that break each kind of pair.
  const auto breaking = [&](int bit) {
    int t = 0;
    while (t < smem::kWarpSize - 1 && r.address[t] == r.address[t ^ bit]) ++t;
    return "lanes " + std::to_string(t) + " and " + std::to_string(t ^ bit);
  };
  std::string principle;
  if (r.width_bytes >= 8 && !smem::pairs_merge(r)) {
    principle =
        "Lane pairs merge only when every lane t reads the same address as lane t ^ 1, "
        "or every lane the same as lane t ^ 2. Here neither holds (" +
        breaking(1) + " differ, and so do " + breaking(2) + "), so the warp is served as " +
        (r.width_bytes == 8 ? "two groups of 16 lanes." : "four groups of 8 lanes.");
  } else if (r.width_bytes == 16 && predicted < a.wavefronts) {
    principle =
        "16-byte accesses are served in groups of at most 16 lanes (when lane pairs "
        "match), never as one group of 32, even when every lane reads the same float4.";
  } else if (r.width_bytes == 8 && predicted > a.wavefronts && shared) {
    principle =
        "When every lane t loads the same 8 bytes as lane t ^ 1 (or every lane the same as "
        "t ^ 2), the pairs merge and the warp is served as one group of 32 lanes.";
  } else if (r.width_bytes < 4 && predicted > a.wavefronts && shared) {
    principle = "Bytes and halfwords in one 4-byte word are served together.";
  } else if (r.width_bytes < 4 && !shared) {
    principle =
        "Count the byte stride in 4-byte words; chapter 02's law applies to the word "
        "stride.";
  }
  const std::string call = "predicted_wavefronts(" + ch03::spec::name(p, c) + ")";
  if (fresh && predicted == ch03::kNotImplemented) {
    GRADER_EXPECT(false, grader::Feedback(call + " returns kNotImplemented for a fresh case "
                                                 "this run drew.")
                             .hint("write the rule for any S and G of the pattern: the grader "
                                   "asks fresh ones."));
    return false;
  }
  grader::Feedback f = grader::prediction_feedback(
      call, predicted, a.wavefronts, ch03::kNotImplemented, r, principle,
      "count distinct 4-byte words per bank in each group of lanes; shared words are free.");
  if (fresh) {
    f.line(
        "A fresh case, drawn by this run: the rule must hold for every S and G of the "
        "pattern.");
  }
  GRADER_EXPECT(false, f);
  return false;
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  // Your variant's case of each pattern (its stride and group: the grader's report lists them),
  // then, once those are right, a fresh case of each that this run draws.
  const auto cases = ch03::spec::cases(grader::variant::current());
  bool right = true;
  for (Pattern p : ch03::kAllPatterns) {
    right = judge_pattern(p, cases[static_cast<int>(p)], false) && right;
  }
  if (!right) return;
  grader::variant::Draw draw = grader::variant::fresh_draw("ch03");
  const auto fresh = ch03::spec::drawn_cases(draw);
  for (Pattern p : ch03::kAllPatterns) {
    if (!judge_pattern(p, fresh[static_cast<int>(p)], true)) return;
  }
}

WORKBOOK_CHECK(ex2_layout) {
  // table_words() is checked before anything is sized from it.
  if (const auto fault = ch03::checks::table_fault(ch03::kTableEntries)) {
    GRADER_FAIL(ch03::checks::table_feedback(*fault));
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex2) {
  // Only a valid table has conflicts to count: one that sends every lane to one word is a
  // broadcast, one wavefront, and holds one entry.
  if (const auto fault = ch03::checks::table_fault(ch03::kTableEntries)) {
    GRADER_FAIL(grader::not_judged_while_invalid(fault->fact, ch03::checks::kLayoutCheck));
  }
  const std::vector<int> slots = ch03::checks::table_slots(ch03::kTableEntries);
  std::mt19937_64 rng(3);
  for (Keys k : ch03::spec::kAllKeys) {
    int worst = 0;
    smem::WarpRequest worst_request;
    for (int warp = 0; warp < 200; ++warp) {
      const std::vector<unsigned char> keys = ch03::spec::draw_keys(k, 32, rng);
      for (int r = 0; r < ch03::kRounds; ++r) {
        const auto request = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) {
          return 4LL * slots[32 * ((keys[t] + 37u * r) & 255u) + static_cast<unsigned>(t)];
        });
        const int wavefronts = smem::analyze(request).wavefronts;
        if (wavefronts > worst) {
          worst = wavefronts;
          worst_request = request;
        }
      }
    }
    GRADER_EXPECT(worst == 1,
                  grader::Feedback(std::string("With ") + ch03::spec::name(k) +
                                   ", a warp's lookups take up to " + std::to_string(worst) +
                                   " wavefronts; they must take one.")
                      .picture(grader::draw(worst_request))
                      .hint("two lanes that read different entries in one bank conflict, and "
                            "the keys may be anything: what keeps two lanes apart must not "
                            "depend on the entries they ask for. Shared memory is what you may "
                            "spend for it (table_words(), up to 48 KiB)."));
  }
  // The rule: tables of fresh sizes each run draws, uniform keys (official grading asks larger
  // tables, which no local run asks).
  grader::variant::Draw draw = grader::variant::fresh_draw("ch03 table");
  for (int i = 0; i < 2; ++i) {
    const int entries = draw.between(1, ch03::checks::kTableEntriesAskedLocally);
    if (const auto fault = ch03::checks::table_fault(entries)) {
      GRADER_FAIL(ch03::checks::table_feedback(*fault));
    }
    const std::vector<int> fresh = ch03::checks::table_slots(entries);
    for (int warp = 0; warp < 200; ++warp) {
      const auto request = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) {
        return 4LL * fresh[static_cast<std::size_t>(32 * static_cast<int>(rng() % entries) + t)];
      });
      const int wavefronts = smem::analyze(request).wavefronts;
      if (wavefronts == 1) continue;
      GRADER_FAIL(grader::Feedback("In a table of " + std::to_string(entries) +
                                   " entries, a warp's lookups of uniform keys take " +
                                   grader::wavefronts(wavefronts) + "; they must take one.")
                      .picture(grader::draw(request))
                      .hint("the rule must hold for every table size of the contract, not only "
                            "lookup_kernel's 256 entries."));
    }
  }
}
