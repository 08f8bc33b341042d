// Chapter 02's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same functions and kernels on cases the hand-out's checks do not try: a
// prediction tuned to strides 0..64, a layout tuned to the local blocks, or a microbenchmark or
// kernel layout tuned to the local cases, loses these points.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "grader/02_strides/device_probes.hpp"
#include "grader/02_strides/layout_check.hpp"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"

namespace ch02::hidden {

/// The strides of exercise 1 this check asks about (lesson_checks.cpp keeps the lesson from
/// drawing them): strides 65 to 300 of each element size, large powers of two times small odd
/// numbers, and random strides up to 2^20 from official grading's seed; every one follows the
/// law, and none is one the lessons work.
std::vector<ch02::spec::StrideCase> hidden_strides() {
  std::vector<ch02::spec::StrideCase> cases;
  const auto add = [&cases](int stride, int bytes) {
    if (ch02::spec::follows_the_law(stride, bytes) &&
        !ch02::spec::worked_by_the_lessons(stride, bytes)) {
      cases.push_back({stride, bytes});
    }
  };
  for (int bytes : {4, 2, 1}) {
    for (int stride = 65; stride <= 300; ++stride) add(stride, bytes);
    for (int odd : {1, 3, 5, 7, 9, 15, 17, 31, 33, 63, 65, 127}) {
      for (int shift = 0; shift <= 14; ++shift) {
        if (odd << shift > 64) add(odd << shift, bytes);
      }
    }
  }
  std::mt19937 rng(grader::hidden_seed(201));
  for (int i = 0; i < 300; ++i) {
    const int bytes = 1 << (rng() % 3), step = 4 / bytes;  // a byte stride that is a multiple of 4
    add(step * (65 + static_cast<int>(rng() % (1u << 18))), bytes);
  }
  return cases;
}

}  // namespace ch02::hidden

WORKBOOK_CHECK(hidden_gcd_law) {
  const auto problem = ch02::spec::gcd_law_problem(ch02::hidden::hidden_strides());
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_staged_layout) {
  // Blocks larger than any local run asks: a layout tuned to owner_sums_kernel's 256 threads, or
  // a table of the local runs' indices, has no rule for these.
  for (int threads = ch02::checks::kThreadsAskedLocally + 32; threads <= ch02::checks::kMostThreads;
       threads += 32) {
    if (const auto fault = ch02::checks::layout_fault(threads)) {
      GRADER_FAIL(ch02::checks::layout_feedback(*fault));
    }
    if (auto problem = ch02::checks::conflict_problem(threads)) GRADER_FAIL(*problem);
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_microbenchmark) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const std::vector<int> strides = {7, 9, 10, 11, 14, 20, 28, 40, 44, 56, 63};
  for (int stride : strides) {
    const auto run = ch02::probes::run_stride_probe(stride, 16, 1);
    if (const auto problem = ch02::checks::probe_misbehaves(stride, run.sink)) {
      GRADER_FAIL(*problem);
    }
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  const std::vector<gpu::SmemCounters> counted = ch02::probes::count_stride_probes(strides, 16);
  for (std::size_t i = 0; i < strides.size(); ++i) {
    const int stride = strides[i];
    const gpu::SmemCounters& c = counted[i];
    const int model = ch02::checks::model_wavefronts(stride);
    const double per_load = c.load_instructions > 0 ? c.load_wavefronts / c.load_instructions : 0;
    GRADER_EXPECT(c.load_instructions == 16 && per_load == model,
                  grader::Feedback("At stride " + std::to_string(stride) + " the counters saw " +
                                   grader::fixed(c.load_instructions, 0) + " shared loads taking " +
                                   grader::fixed(per_load, 2) + " wavefronts each.")
                      .hint("the chain must be the only shared loads, one per iteration, at "
                            "word lane * stride, for every stride from 0 to 64."));
  }
}

WORKBOOK_CHECK(hidden_owner_sums) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = ch02::checks::owner_sums_problem(
      {2, 31, 32, 33, 511, 512, 513, 4095, 65537, 100003}, grader::hidden_seed(202));
  GRADER_EXPECT(!problem, *problem);
}
