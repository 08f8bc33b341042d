// Chapter 03 GPU checks: the counters against your predictions, and your lookup table on the
// GPU: correct for every key distribution, faster than the naive table where it conflicts and
// no slower where it does not.
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/model/bank_model.hpp"
#include "grader/03_broadcast_multicast/device_probes.hpp"
#include "grader/03_broadcast_multicast/pattern_spec.hpp"
#include "grader/03_broadcast_multicast/table_check.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch03::Pattern;
using ch03::spec::Keys;
constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;

std::vector<unsigned> random_table(std::mt19937_64& rng) {
  std::vector<unsigned> table(ch03::kTableEntries);
  for (unsigned& e : table) e = static_cast<unsigned>(rng());
  return table;
}

std::string key_label(Keys k) {
  std::string label = ch03::spec::name(k);
  for (char& c : label) c = (c == ' ' || c == '(' || c == ')' || c == '%') ? '_' : c;
  return label;
}

// lookup_kernel with the student's table against the CPU for every key distribution, with a
// tail; the feedback for the first wrong result.
std::optional<grader::Feedback> lookup_problem() {
  std::mt19937_64 rng(grader::run_seed());
  const std::vector<unsigned> table = random_table(rng);
  for (Keys k : ch03::spec::kAllKeys) {
    const std::size_t n = 100000 + rng() % 1000;  // a tail that is not a multiple of anything
    const std::vector<unsigned char> keys = ch03::spec::draw_keys(k, n, rng);
    if (auto problem = ch03::checks::lookup_mismatch(table, keys, ch03::spec::name(k))) {
      return problem;
    }
  }
  return std::nullopt;
}

}  // namespace

WORKBOOK_CHECK(ex1_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // Your variant's case of each pattern, one warp request each, in one profiler session.
  const auto cases = ch03::spec::cases(grader::variant::current());
  std::vector<smem::WarpRequest> requests;
  for (Pattern p : ch03::kAllPatterns) {
    requests.push_back(ch03::spec::request(cases[static_cast<int>(p)]));
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (Pattern p : ch03::kAllPatterns) {
    const int i = static_cast<int>(p);
    const std::string name = ch03::spec::name(p, cases[i]);
    const int predicted = ch03::predicted_wavefronts(p, cases[i]);
    const gpu::MeasuredAccess& m = measured[static_cast<std::size_t>(i)];
    grader::record_measurement(kMeasurementFile, "counted_wavefronts." + name, m.wavefronts,
                               "wavefronts");
    GRADER_EXPECT(
        m.wavefronts == predicted,
        predicted == ch03::kNotImplemented
            ? grader::prediction_not_done("predicted_wavefronts(" + name + ")", "exercise 1")
            : grader::Feedback("The GPU counted " + grader::more_or_fewer(m.wavefronts, predicted) +
                               " wavefronts for " + name + " than you predicted (" +
                               std::to_string(predicted) + ").")
                  .hint("count distinct words per bank, per group of lanes.")
                  .reveal("The GPU counted " + grader::wavefronts(m.wavefronts) + ":")
                  .reveal(grader::draw(requests[static_cast<std::size_t>(i)])));
  }
}

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = lookup_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (lookup_problem()) {  // correctness gates speed
    GRADER_FAIL(grader::not_judged_while_wrong(
        "Not timed", "lookup_kernel with your table gives wrong results"));
  }
  std::mt19937_64 rng(grader::run_seed() + 1);
  const std::vector<unsigned> table = random_table(rng);
  const std::size_t n = std::size_t{1} << 25;
  std::vector<grader::SpeedRow> rows;
  double uniform_speedup = 0, uniform_ms = 0, worst_other = 1e9;
  std::string worst_name;
  for (Keys k : ch03::spec::kAllKeys) {
    const std::vector<unsigned char> keys = ch03::spec::draw_keys(k, n, rng);
    const ch03::probes::LookupTimes t = ch03::probes::time_lookups(table, keys);
    const double speedup = t.naive_ms / t.yours_ms;
    rows.push_back({std::string("naive, ") + ch03::spec::name(k), t.naive_ms, 0});
    rows.push_back({std::string("yours, ") + ch03::spec::name(k), t.yours_ms, 0});
    grader::record_measurement(kMeasurementFile, "speedup." + key_label(k), speedup, "x");
    if (k == Keys::kUniform) {
      grader::record_measurement(kMeasurementFile, "occupancy.yours_blocks_per_sm",
                                 t.yours_blocks_per_sm, "blocks");
      grader::record_measurement(kMeasurementFile, "occupancy.naive_blocks_per_sm",
                                 t.naive_blocks_per_sm, "blocks");
    }
    if (k == Keys::kUniform) {
      uniform_speedup = speedup;
      uniform_ms = t.yours_ms;
    } else if (speedup < worst_other) {
      worst_other = speedup;
      worst_name = ch03::spec::name(k);
    }
  }
  std::string table_text;
  for (std::size_t i = 0; i < rows.size(); i += 2) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-40s naive %8.3f ms   yours %8.3f ms   %5.2fx\n",
                  rows[i + 1].name.substr(7).c_str(), rows[i].median_ms, rows[i + 1].median_ms,
                  rows[i].median_ms / rows[i + 1].median_ms);
    table_text += line;
  }
  const gpu::Ceilings ceilings = grader::hardware_ceilings();
  if (const double peak = ceilings.shared_bytes_per_second; peak > 0) {
    const double fraction = n * ch03::kRounds * 4.0 / (uniform_ms * 1e-3) / peak;
    grader::record_measurement(kMeasurementFile, "uniform.fraction_of_shared_peak", fraction, "");
    char line[200];
    std::snprintf(line, sizeof line,
                  "  ceiling: yours with uniform keys reads %.2f of the shared-memory peak (%.0f "
                  "GB/s: 128 bytes per SM per clock at %.0f MHz, %s)\n",
                  fraction, peak / 1e9, ceilings.sm_clock_hz / 1e6,
                  ceilings.clock_measured ? "measured in this run" : "the GPU's peak clock");
    table_text += line;
  }
  std::cout << "lookup_kernel, " << n << " keys x " << ch03::kRounds
            << " lookups (median of 21 launches):\n"
            << table_text;
  const grader::Threshold& faster = grader::chapter::threshold("uniform_speedup");
  const grader::Threshold& no_slower = grader::chapter::threshold("other_keys_speed");
  GRADER_EXPECT(
      grader::passes(faster, uniform_speedup),
      grader::Feedback("With uniform keys your table is " + grader::fixed(uniform_speedup) +
                       "x as fast as the naive one; it must reach " + grader::fixed(faster.value) +
                       "x.")
          .picture(table_text)
          .hint("random keys make lanes collide in the naive table's banks."));
  GRADER_EXPECT(
      grader::passes(no_slower, worst_other),
      grader::Feedback("With " + worst_name + " your table runs at " + grader::fixed(worst_other) +
                       "x the naive one's speed; it must "
                       "stay at " +
                       grader::fixed(no_slower.value) + "x or better.")
          .picture(table_text)
          .hint("a layout that fixes random keys must not cost much where the naive "
                "table had no conflict (one key for all, sequential keys)."));
}
