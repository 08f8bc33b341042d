// Chapter 10: how the GPU checks judge a GEMM's results: random fp16 problems, the exact fp64
// result, and the tolerance of fp32 accumulation.
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/parallel_rows.hpp"
#include "grader/harness/random_values.hpp"

namespace ch10::gemm {

/// Launches a GEMM C = A B^T of the contract (A M x K, B N x K, C M x N) on device buffers.
using Launch = std::function<void(const __half*, const __half*, float*, int, int, int)>;

/// Products of two fp16 values are exact in fp32 (11 + 11 significant bits), so a result
/// differs from the exact sum only by fp32 accumulation: at most about K u sum |a b| (u = 2^-24)
/// for any order of the additions. That is the tolerance of each fp32 result, twice it between
/// two. A tile read from the wrong bytes, a stage read before it landed or a K-step left out is
/// off by a sizeable part of sum |a b| itself.
inline double tolerance(int K) {
  return K * std::ldexp(1.0, -24);
}

struct Problem {
  int M, N, K;
  std::vector<__half> A, B;  // M x K and N x K, row-major
};

// Uniform in [-1, 1), rounded to fp16: grader::random_values of one seed per matrix drawn from
// `rng`.
inline Problem random_problem(int M, int N, int K, std::mt19937_64& rng) {
  const auto half = [](float x) { return __float2half(x); };
  const unsigned long long seed_a = rng(), seed_b = rng();
  return Problem{M, N, K, grader::random_values<__half>(static_cast<size_t>(M) * K, seed_a, half),
                 grader::random_values<__half>(static_cast<size_t>(N) * K, seed_b, half)};
}

/// The exact C[i][j] and sum over k of |A[i][k] B[j][k]|.
inline std::pair<double, double> reference(const Problem& p, int i, int j) {
  double sum = 0, magnitude = 0;
  for (int k = 0; k < p.K; ++k) {
    const double product =
        static_cast<double>(__half2float(p.A[static_cast<size_t>(i) * p.K + k])) *
        __half2float(p.B[static_cast<size_t>(j) * p.K + k]);
    sum += product;
    magnitude += std::fabs(product);
  }
  return {sum, magnitude};
}

/// reference() of every entry (row-major): the operands converted to fp32 once (exactly), the
/// rows over the CPU's threads, each sum the same products in the same order as reference().
struct Exact {
  std::vector<double> value, magnitude;
};
inline Exact exact_result(const Problem& p) {
  std::vector<float> a(p.A.size()), b(p.B.size());
  std::transform(p.A.begin(), p.A.end(), a.begin(), [](__half x) { return __half2float(x); });
  std::transform(p.B.begin(), p.B.end(), b.begin(), [](__half x) { return __half2float(x); });
  Exact exact{std::vector<double>(static_cast<size_t>(p.M) * p.N),
              std::vector<double>(static_cast<size_t>(p.M) * p.N)};
  grader::parallel_rows(p.M, [&](int i) {
    const float* row = &a[static_cast<size_t>(i) * p.K];
    for (int j = 0; j < p.N; ++j) {
      const float* column = &b[static_cast<size_t>(j) * p.K];
      double sum = 0, magnitude = 0;
      for (int k = 0; k < p.K; ++k) {
        const double product = static_cast<double>(row[k]) * column[k];
        sum += product;
        magnitude += std::fabs(product);
      }
      exact.value[static_cast<size_t>(i) * p.N + j] = sum;
      exact.magnitude[static_cast<size_t>(i) * p.N + j] = magnitude;
    }
  });
  return exact;
}

inline std::string shape(const Problem& p) {
  return std::to_string(p.M) + " x " + std::to_string(p.N) + " x " + std::to_string(p.K);
}

inline const char* kWrongHint =
    "the pipeline (steps 2 and 3 of the kernel): every thread commits one group per stage, empty "
    "ones included; before a stage is read its group must have landed (cp.async.wait_group N: "
    "how many of this thread's groups may still be in flight?) and every thread must have met "
    "the others at a barrier, which also frees the stage the next copy overwrites. Exercises 3a "
    "and 3b check on the host that fill_copy and fragment_offset agree.";

inline grader::Feedback wrong_result(const std::string& who, const Problem& p, int i, int j,
                                     float got, double exact, double allowed) {
  char line[240];
  std::snprintf(line, sizeof line,
                "%s gives C[%d][%d] = %.9g; the exact value is %.9g (tolerance %.3g).", who.c_str(),
                i, j, static_cast<double>(got), exact, allowed);
  grader::Feedback f(who + " is wrong on " + shape(p) + " (M x N x K).");
  f.line(line);
  if (std::isnan(got)) {
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
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  c.fill_bytes(0xff);
  launch(a.get(), b.get(), c.get(), p.M, p.N, p.K);
  GPU_CHECK_KERNEL(who.c_str());
  const std::vector<float> got = c.download();
  const Exact result = exact_result(p);
  for (int i = 0; i < p.M; ++i) {
    for (int j = 0; j < p.N; ++j) {
      const double exact = result.value[static_cast<size_t>(i) * p.N + j];
      const double magnitude = result.magnitude[static_cast<size_t>(i) * p.N + j];
      const float g = got[static_cast<size_t>(i) * p.N + j];
      const double allowed = tolerance(p.K) * magnitude;
      if (!(std::fabs(g - exact) <= allowed)) return wrong_result(who, p, i, j, g, exact, allowed);
      if (worst && allowed > 0) *worst = std::max(*worst, std::fabs(g - exact) / allowed);
    }
  }
  return std::nullopt;
}

}  // namespace ch10::gemm
