// Chapter 09: the correctness check of sgemm_kernel, for the GPU checks (and official grading's
// hidden ones): the shared GEMM bench (grader/gemm/) on fp32 operands, C = A B, with the fp32
// tolerance and what the chapter says about a wrong entry.
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch09::check {

// fp32 sums of K products differ from the exact sum by rounding in every step: on these
// uniform [-1, 1] inputs by about 1e-8 of sum |a b| for K = 8 and 1e-7 for K = 4096 (both
// sequential and blocked orders). TF32 rounds every input to 10 mantissa bits first, an error of
// about 5e-4 of each product, which leaves errors of 1e-5 to 1e-3 of sum |a b|. The tolerance
// sits between, at 1e-6 of sum |a b| for each result (2e-6 between two fp32 results).
constexpr double kTolerance = 1e-6;

using Problem = gemm::Problem<float>;

// Uniform in [-1, 1): grader::random_floats of one seed per matrix drawn from `rng`.
inline Problem random_problem(int M, int N, int K, std::mt19937_64& rng) {
  return gemm::random_problem<float>(gemm::Operands::kAB, M, N, K, rng);
}

// The first entry of `c` further from the fp64 result than the tolerance, as feedback.
inline std::optional<grader::Feedback> compare_with_fp64(const Problem& p,
                                                         const std::vector<float>& c,
                                                         const std::string& who) {
  const auto wrong = gemm::first_mismatch(gemm::exact_result(p), p.N, c, {kTolerance, 1e-30});
  if (!wrong) return std::nullopt;
  char line[200];
  std::snprintf(line, sizeof line, "%s gives C[%d][%d] = %.9g; the exact value is %.9g.",
                who.c_str(), wrong->i, wrong->j, static_cast<double>(wrong->got), wrong->exact);
  grader::Feedback f(who + " is wrong on " + gemm::shape(p) + " (M x N x K).");
  f.line(line);
  if (std::isnan(wrong->got))
    f.line("That element was never written (C was filled with NaN).");
  else if (std::fabs(wrong->got - wrong->exact) < 1e-3 * wrong->magnitude)
    f.line(
        "The error is small but far above fp32 rounding: are the products rounded to "
        "TF32 (10 mantissa bits)?");
  return f.hint(p.M == p.N ? "check the tile indices and the K loop."
                           : "this shape is not square: check which of M, N and K each "
                             "index and bound uses.");
}

}  // namespace ch09::check
