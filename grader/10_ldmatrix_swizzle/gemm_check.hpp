// Chapter 10: how the GPU checks judge a GEMM's results: the shared GEMM bench (grader/gemm/) on
// fp16 operands, C = A B^T, with the tolerance of fp32 accumulation and what the chapter says
// about a wrong entry.
#pragma once

#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch10::check {

/// Launches a GEMM C = A B^T of the contract (A M x K, B N x K, C M x N) on device buffers.
using Launch = gemm::Launch<__half>;

/// Products of two fp16 values are exact in fp32 (11 + 11 significant bits), so a result
/// differs from the exact sum only by fp32 accumulation: at most about K u sum |a b| (u = 2^-24)
/// for any order of the additions. That is the tolerance of each fp32 result, twice it between
/// two. A tile read from the wrong bytes, a stage read before it landed or a K-step left out is
/// off by a sizeable part of sum |a b| itself.
inline double tolerance(int K) {
  return K * std::ldexp(1.0, -24);
}

using Problem = gemm::Problem<__half>;

// Uniform in [-1, 1), rounded to fp16: one seed per matrix drawn from `rng`.
inline Problem random_problem(int M, int N, int K, std::mt19937_64& rng) {
  return gemm::random_problem<__half>(gemm::Operands::kABt, M, N, K, rng);
}

inline const char* kWrongHint =
    "the pipeline (steps 2 and 3 of the kernel): every thread commits one group per stage, empty "
    "ones included; before a stage is read its group must have landed (cp.async.wait_group N: "
    "how many of this thread's groups may still be in flight?) and every thread must have met "
    "the others at a barrier, which also frees the stage the next copy overwrites. Exercises 3a "
    "and 3b check on the host that fill_copy and fragment_offset agree.";

inline grader::Feedback wrong_result(const std::string& who, const Problem& p,
                                     const gemm::Mismatch& m) {
  char line[240];
  std::snprintf(line, sizeof line,
                "%s gives C[%d][%d] = %.9g; the exact value is %.9g (tolerance %.3g).", who.c_str(),
                m.i, m.j, static_cast<double>(m.got), m.exact, m.allowed);
  grader::Feedback f(who + " is wrong on " + gemm::shape(p) + " (M x N x K).");
  f.line(line);
  if (std::isnan(m.got)) {
    f.line(
        "That element is NaN: never written (C was filled with NaN), or computed from a stage "
        "read before its copies landed (the grader fills shared memory with NaN first).");
  }
  return f.hint(kWrongHint);
}

/// Runs `launch` on p, C poisoned with NaN, and compares every entry with fp64: the feedback
/// for the first wrong entry, or nothing. `worst`, when given, grows to the largest error in
/// units of the tolerance.
inline std::optional<grader::Feedback> check_against_fp64(const Launch& launch,
                                                          const std::string& who, const Problem& p,
                                                          double* worst = nullptr) {
  const std::vector<float> got = gemm::run(launch, p, who);
  const auto wrong = gemm::first_mismatch(gemm::exact_result(p), p.N, got, {tolerance(p.K)}, worst);
  if (!wrong) return std::nullopt;
  return wrong_result(who, p, *wrong);
}

}  // namespace ch10::check
