// Chapter 02: the GPU checks' judgements of the exercise's kernels, for the hand-out's cases
// and for official grading's others alike.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/device_probes.hpp"
#include "grader/02_strides/layout_check.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch02::checks {

/// The bank model's wavefronts for a warp of float loads at word stride `stride`.
inline int model_wavefronts(int stride) {
  return smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                                     [stride](int t) { return 4LL * stride * t; }))
      .wavefronts;
}

/// The probe must end every lane at word lane * stride; the feedback when it does not.
inline std::optional<grader::Feedback> probe_misbehaves(int stride,
                                                        const std::vector<unsigned>& sink) {
  for (int t = 0; t < 32; ++t) {
    const unsigned want = static_cast<unsigned>(t * stride);
    if (sink[t] == want) continue;
    grader::Feedback f("stride_probe_kernel at stride " + std::to_string(stride) + ": lane " +
                       std::to_string(t) + " wrote " + std::to_string(sink[t]) +
                       " to sink; its chain should end at word " + std::to_string(want) + ".");
    if (sink[t] == 0xAAAAAAAAu)
      f.line("stride_probe_kernel is not implemented yet (sink unwritten).");
    f.hint(
        "zero the shared words first, start at index lane * stride, and chain the loads "
        "(index += words[index]).");
    return f;
  }
  return std::nullopt;
}

/// owner_sums_kernel with the student's layout against the CPU for each of `owner_counts`, on
/// random data from `seed`; the feedback for the first wrong sum, or why it was not run.
inline std::optional<grader::Feedback> owner_sums_problem(const std::vector<int>& owner_counts,
                                                          std::uint64_t seed) {
  // The launch sizes shared memory from staged_words() and indexes it with staged_index():
  // both are checked on the host first. (Two values in one word are left to the sums.)
  if (const auto fault = layout_fault(ch02::kThreads, /*bijection=*/false)) {
    return grader::not_run_while_invalid(*fault, kLayoutCheck);
  }
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int owners : owner_counts) {
    std::vector<float> in(static_cast<size_t>(owners) * ch02::kValuesPerThread);
    for (float& x : in) x = uniform(rng);
    const std::vector<float> out = ch02::probes::owner_sums(in, owners, true);
    for (int g = 0; g < owners; ++g) {
      double want = 0, scale = 0;
      for (int i = 0; i < 32; ++i) {
        want += (i + 1.0) * in[static_cast<size_t>(g) * 32 + i];
        scale += (i + 1.0) * std::fabs(in[static_cast<size_t>(g) * 32 + i]);
      }
      if (!(std::fabs(out[g] - want) <= 1e-5 * scale + 1e-6)) {
        return grader::Feedback("owner_sums_kernel<YourLayout> with " + std::to_string(owners) +
                                " owners: out[" + std::to_string(g) + "] is " +
                                std::to_string(out[g]) + ", expected " + std::to_string(want) + ".")
            .hint(
                "check the host checks of the layout first: two values sharing a word, or an "
                "index beyond staged_words(), corrupt the sums.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace ch02::checks
