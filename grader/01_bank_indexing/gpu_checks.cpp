// Chapter 01 GPU checks: exercise 4 on the device, and the measured cost of every pattern
// against exercise 3's predictions.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "common/counters/smem_counters.hpp"
#include "common/model/bank_model.hpp"
#include "grader/01_bank_indexing/answer_cases.hpp"
#include "grader/01_bank_indexing/device_probes.hpp"
#include "grader/01_bank_indexing/pattern_cases.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/cost_fit.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch01::Pattern;
using ch01::PatternCase;

constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;
const grader::CostFitLimits kCostFitLimits{grader::chapter::threshold("cost_fit_r_squared"),
                                           grader::chapter::threshold("cycles_per_wavefront"),
                                           grader::chapter::threshold("max_residual_wavefronts")};

smem::WarpRequest request_from(const std::vector<unsigned>& addresses, std::size_t warp,
                               int width) {
  return smem::WarpRequest::from_lanes(width, smem::Op::kLoad,
                                       [&](int t) { return addresses[warp * 32 + t]; });
}

// Warps of 1-, 2- and 4-byte accesses that exercise broadcast, multicast and conflicts, drawn
// from the run's seed.
struct TestWarps {
  std::vector<unsigned> addresses;  // 32 per warp
  std::vector<int> widths;          // one per warp
  std::vector<std::string> kinds;   // one per warp
  void add(const std::string& kind, int width, const std::vector<unsigned>& lanes) {
    addresses.insert(addresses.end(), lanes.begin(), lanes.end());
    widths.push_back(width);
    kinds.push_back(kind);
  }
};

TestWarps make_test_warps(std::uint64_t seed) {
  TestWarps warps;
  std::mt19937_64 rng(seed);
  auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  for (int i = 0; i < 400; ++i) {
    std::vector<unsigned> lanes(32);
    // Random words in a small region: several banks with 2-4 distinct words.
    for (auto& a : lanes) a = 4 * pick(256);
    warps.add("random words", 4, lanes);
    // A stride of 0..64 words from a random start.
    const unsigned stride = pick(65), start = pick(64);
    for (int t = 0; t < 32; ++t) lanes[t] = 4 * (start + stride * static_cast<unsigned>(t));
    warps.add("stride " + std::to_string(stride) + " words", 4, lanes);
    // Few distinct words, many lanes on each: broadcasts mixed with conflicts.
    std::vector<unsigned> words(1 + pick(4));
    for (auto& w : words) w = pick(8) * 32 + pick(3);
    for (auto& a : lanes) a = 4 * words[pick(static_cast<unsigned>(words.size()))];
    warps.add("few shared words", 4, lanes);
    // Bytes and halfwords: lanes in one word share it (multicast).
    for (auto& a : lanes) a = pick(512);
    warps.add("random bytes", 1, lanes);
    for (auto& a : lanes) a = 2 * pick(1024);
    warps.add("random halfwords", 2, lanes);
  }
  return warps;
}

// Measuring the patterns means something only once exercises 2 and 3 are done: the feedback
// for the first thing missing, or nothing.
std::optional<grader::Feedback> not_ready_to_measure(const std::string& verb) {
  for (const PatternCase& c : ch01::spec::pattern_cases(grader::variant::current())) {
    const Pattern p = c.pattern;
    const int predicted = ch01::predicted_wavefronts(c);
    if (predicted < 1) {
      return grader::Feedback("Not " + verb + ": predicted_wavefronts(c) for " +
                              ch01::spec::case_name(c) + " is " + std::to_string(predicted) + ".")
          .hint("finish exercise 3 (see the host checks) first.");
    }
    if (!ch01::spec::pattern_address_match(c).right) {
      return grader::Feedback("Not " + verb + ": pattern_address(" + ch01::spec::name(p) +
                              ", lane) is not right yet.")
          .hint("finish exercise 2 (see the host checks) first.");
    }
    const std::vector<unsigned> device = ch01::probes::device_pattern_addresses(c);
    for (int t = 0; t < 32; ++t) {
      const unsigned a = ch01::pattern_address(c, t);
      if (device[t] != a) {
        return grader::Feedback("Not " + verb + ": pattern_address(" + ch01::spec::name(p) +
                                ", lane " + std::to_string(t) + ") is " + std::to_string(a) +
                                " on the host and " + std::to_string(device[t]) + " on the device.")
            .hint(
                "pattern_address is __host__ __device__: the same code must hold on both "
                "sides.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace

WORKBOOK_CHECK(ex1_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  std::mt19937 rng(static_cast<unsigned>(grader::run_seed()));
  std::vector<unsigned> addresses(8192);
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    addresses[i] = i < 2048 ? static_cast<unsigned>(i) : static_cast<unsigned>(rng());
  }
  const std::vector<int> banks = ch01::probes::device_bank_of(addresses);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    if (banks[i] != smem::bank_of(addresses[i]) && wrong++ == 0) first = i;
  }
  GRADER_EXPECT(
      wrong == 0,
      grader::Feedback("bank_of on the device returned " + std::to_string(banks[first]) +
                       " for address " + std::to_string(addresses[first]) + "; the bank is " +
                       std::to_string(smem::bank_of(addresses[first])) + ".")
          .line(std::to_string(wrong) + " of " + std::to_string(addresses.size()) +
                " addresses were wrong on the device.")
          .hint("bank_of is __host__ __device__: the same code must hold on both "
                "sides; see the host check of exercise 1."));
}

WORKBOOK_CHECK(ex4) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const TestWarps warps = make_test_warps(grader::run_seed());
  const std::vector<int> got = ch01::probes::device_warp_wavefronts(warps.addresses);
  std::size_t wrong = 0, first = 0;
  for (std::size_t w = 0; w < warps.widths.size(); ++w) {
    const int want = smem::analyze(request_from(warps.addresses, w, warps.widths[w])).wavefronts;
    bool ok = true;
    for (int t = 0; t < 32; ++t) ok = ok && got[w * 32 + t] == want;
    if (!ok && wrong++ == 0) first = w;
  }
  if (wrong == 0) {
    SUCCEED();
    return;
  }
  const smem::WarpRequest request = request_from(warps.addresses, first, warps.widths[first]);
  const smem::Analysis model = smem::analyze(request);
  std::ostringstream lanes;
  for (int t = 0; t < 32; ++t) lanes << (t ? " " : "") << got[first * 32 + t];
  grader::Feedback f("warp_wavefronts is wrong for " + std::to_string(wrong) + " of " +
                     std::to_string(warps.widths.size()) + " warps. First: a warp of " +
                     warps.kinds[first] + ", which takes " + grader::wavefronts(model.wavefronts) +
                     ".");
  f.line("lanes 0..31 returned: " + lanes.str());
  const int lane0 = got[first * 32];
  if (lane0 == ch01::kNotImplemented) {
    f.line("warp_wavefronts is not implemented yet (it returns kNotImplemented).");
  }
  f.picture(grader::draw(request));
  f.hint(
      "lanes that touch the same word cost nothing extra (broadcast), also for bytes and "
      "halfwords of one word: count distinct words (address / 4) per bank, then the "
      "warp's maximum, and return it on every lane.");
  GRADER_EXPECT(false, f);
}

WORKBOOK_CHECK(ex3_cycles) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto problem = not_ready_to_measure("timed")) GRADER_FAIL(*problem);
  std::vector<grader::CostPoint> points;
  for (const PatternCase& c : ch01::spec::pattern_cases(grader::variant::current())) {
    const Pattern p = c.pattern;
    const double cycles = ch01::probes::pattern_load_cycles(c, 2048, 15);
    points.push_back(
        {ch01::spec::name(p), static_cast<double>(ch01::predicted_wavefronts(c)), cycles});
    grader::record_measurement(
        kMeasurementFile, std::string("cycles_per_load.") + ch01::spec::name(p), cycles, "cycles");
  }
  std::cout << "Measured cost of one warp's load (median of 15 launches, 2048 dependent loads)\n";
  const auto problem = grader::judge_cost_fit(points, kCostFitLimits, kMeasurementFile, "pattern");
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) {
    GRADER_SKIP("hardware counters not checked: " + counters.reason +
                ". The cycle check above still grades your predictions on the GPU.");
  }
  if (const auto problem = not_ready_to_measure("counted")) GRADER_FAIL(*problem);
  const std::vector<PatternCase> cases = ch01::spec::pattern_cases(grader::variant::current());
  const std::vector<double> counted = ch01::probes::pattern_wavefronts_counted(cases);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const PatternCase& c = cases[i];
    const Pattern p = c.pattern;
    const double measured = counted[i];
    const int predicted = ch01::predicted_wavefronts(c);
    grader::record_measurement(kMeasurementFile,
                               std::string("counted_wavefronts.") + ch01::spec::name(p), measured,
                               "wavefronts");
    GRADER_EXPECT(
        measured == predicted,
        grader::Feedback("The GPU counted " + grader::more_or_fewer(measured, predicted) +
                         " wavefronts for " + ch01::spec::name(p) + " than you predicted (" +
                         std::to_string(predicted) + ").")
            .line("your case: " + ch01::pattern_description(c))
            .hint("the counter is l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld, "
                  "what Nsight Compute shows; count distinct words per bank.")
            .reveal("The GPU counted " + grader::wavefronts(static_cast<long>(measured)) + ":")
            .reveal(grader::draw(ch01::spec::request_of_exercise(c))));
  }
}
