// Chapter 02 GPU checks: your microbenchmark measures the gcd law, and your layout makes
// owner_sums_kernel correct and faster than the thread-major one.
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/device_probes.hpp"
#include "grader/02_strides/layout_check.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/cost_fit.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;
const grader::CostFitLimits kCostFitLimits{grader::chapter::threshold("cost_fit_r_squared"),
                                           grader::chapter::threshold("cycles_per_wavefront"),
                                           grader::chapter::threshold("max_residual_wavefronts")};
constexpr int kIterations = 1024;
// The microbenchmark's strides: the variant's (grader/02_strides/stride_spec.hpp).
const std::vector<int> kStrides = ch02::spec::probe_strides();

using ch02::checks::model_wavefronts;
using ch02::checks::probe_misbehaves;

// owner_sums_kernel with the student's layout on owner counts with and without tails, one of
// them drawn from the run's seed.
std::optional<grader::Feedback> owner_sums_problem() {
  const std::uint64_t seed = grader::run_seed();
  const int drawn = 40000 + static_cast<int>(seed % 1000);
  return ch02::checks::owner_sums_problem({1, 255, 256, 257, 1000, drawn}, seed);
}

}  // namespace

WORKBOOK_CHECK(ex1_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // Every graded (stride, element size) of a class variant (72), each one request on its own;
  // of self-study's 170 one in ten, so that the student's GPU suite stays under a minute.
  std::vector<ch02::spec::StrideCase> cases;
  const std::vector<ch02::spec::StrideCase> graded = ch02::spec::graded_strides();
  const bool self_study = grader::variant::current().self_study();
  for (std::size_t i = 0; i < graded.size(); ++i) {
    if (!self_study || i % 10 == 0) cases.push_back(graded[i]);
  }
  std::vector<smem::WarpRequest> requests;
  for (const ch02::spec::StrideCase& c : cases) {
    requests.push_back(ch02::spec::stride_request(c.stride, c.element_bytes));
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  int wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (ch02::predicted_wavefronts(cases[i].stride, cases[i].element_bytes) !=
            measured[i].wavefronts &&
        wrong++ == 0) {
      first = i;
    }
  }
  if (wrong > 0) {
    const ch02::spec::StrideCase& c = cases[first];
    const int predicted = ch02::predicted_wavefronts(c.stride, c.element_bytes);
    GRADER_FAIL(
        (predicted == ch02::kNotImplemented
             ? grader::prediction_not_done(ch02::spec::call_of(c), "exercise 1")
             : grader::Feedback("The GPU counted " +
                                grader::more_or_fewer(measured[first].wavefronts, predicted) +
                                " wavefronts for " + ch02::spec::describe(c) +
                                " than you predicted (" + std::to_string(predicted) + ")."))
            .line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
                  " (stride, element size) pairs counted disagree with the counters; this is "
                  "the first.")
            .hint("the host check of exercise 1 draws the request and says which principle "
                  "applies.")
            .reveal("The GPU counted " + grader::wavefronts(measured[first].wavefronts) + "."));
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex2) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  std::vector<grader::CostPoint> points;
  for (int stride : kStrides) {
    const ch02::probes::ProbeRun run = ch02::probes::run_stride_probe(stride, kIterations, 9);
    if (const auto problem = probe_misbehaves(stride, run.sink)) GRADER_FAIL(*problem);
    const int predicted = ch02::predicted_wavefronts(stride, 4);
    if (predicted < 1) {
      GRADER_FAIL(grader::Feedback("Not timed: predicted_wavefronts(" + std::to_string(stride) +
                                   ", 4) is " + std::to_string(predicted) + ".")
                      .hint("finish exercise 1 (see the host checks) first."));
    }
    points.push_back(
        {"stride " + std::to_string(stride), static_cast<double>(predicted), run.cycles_per_load});
    grader::record_measurement(kMeasurementFile, "cycles_per_load.stride" + std::to_string(stride),
                               run.cycles_per_load, "cycles");
  }
  std::cout << "Your microbenchmark, one warp, " << kIterations
            << " dependent loads (median of 9 launches):\n";
  const auto problem =
      grader::judge_cost_fit(points, kCostFitLimits, kMeasurementFile, "stride (words)");
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  for (int stride : kStrides) {
    const auto run = ch02::probes::run_stride_probe(stride, 16, 1);
    if (const auto problem = probe_misbehaves(stride, run.sink)) GRADER_FAIL(*problem);
  }
  const std::vector<gpu::SmemCounters> counted = ch02::probes::count_stride_probes(kStrides, 16);
  for (std::size_t i = 0; i < kStrides.size(); ++i) {
    const int stride = kStrides[i];
    const gpu::SmemCounters& c = counted[i];
    const int model = model_wavefronts(stride);
    const double per_load = c.load_instructions > 0 ? c.load_wavefronts / c.load_instructions : 0;
    grader::record_measurement(kMeasurementFile,
                               "counted_wavefronts.stride" + std::to_string(stride), per_load,
                               "wavefronts");
    GRADER_EXPECT(
        c.load_instructions == 16 && per_load == model,
        grader::Feedback("At stride " + std::to_string(stride) + " the counters saw " +
                         grader::fixed(c.load_instructions, 0) + " shared loads taking " +
                         grader::fixed(per_load, 2) +
                         " wavefronts each; a chain of 16 loads at that stride costs " +
                         (c.load_instructions != 16 ? "something else"
                                                    : grader::more_or_fewer(model, per_load)) +
                         ".")
            .hint("the chain must be the kernel's only shared loads, one per iteration, each "
                  "where the contract in strides.cuh puts the lane's chain.")
            .reveal("Expected: 16 loads of " + grader::wavefronts(model) + " each."));
  }
}

WORKBOOK_CHECK(ex3_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = owner_sums_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (owner_sums_problem()) {  // correctness gates speed
    GRADER_FAIL(grader::not_judged_while_wrong(
        "Not timed", "owner_sums_kernel with your layout gives wrong sums"));
  }
  const int owners = 1 << 21;  // 256 MiB of input: several times the L2
  const ch02::probes::OwnerSumsTimes t = ch02::probes::time_owner_sums(owners);
  const grader::SpeedCheck check{
      kMeasurementFile,
      "owner_sums",
      "thread_major",
      "thread-major layout",
      "your layout",
      "owner_sums_kernel, " + std::to_string(owners) + " owners (median of 31 launches):",
      grader::chapter::threshold("layout_speedup"),
      "Your layout makes owner_sums_kernel",
      "the host checks say which access still conflicts."};
  const auto problem =
      grader::judge_speed(check, t.yours_ms, t.thread_major_ms, t.copy_ms, t.bytes);
  GRADER_EXPECT(!problem, *problem);
}
