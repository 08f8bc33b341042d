// Chapter 09: the correctness check of sgemm_kernel, for the GPU checks (and official grading's
// hidden ones): random problems, the fp64 reference and the fp32 tolerance.
#pragma once

#include <cmath>
#include <cstdio>
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

namespace ch09::check {

// fp32 sums of K products differ from the exact sum by rounding in every step: on these
// uniform [-1, 1] inputs by about 1e-8 of sum |a b| for K = 8 and 1e-7 for K = 4096 (both
// sequential and blocked orders). TF32 rounds every input to 10 mantissa bits first, an error of
// about 5e-4 of each product, which leaves errors of 1e-5 to 1e-3 of sum |a b|. The tolerance
// sits between, at 1e-6 of sum |a b| for each result (2e-6 between two fp32 results).
constexpr double kTolerance = 1e-6;

struct Problem {
  int M, N, K;
  std::vector<float> A, B;
};

// Uniform in [-1, 1): grader::random_floats of one seed per matrix drawn from `rng`.
inline Problem random_problem(int M, int N, int K, std::mt19937_64& rng) {
  const unsigned long long seed_a = rng(), seed_b = rng();
  return Problem{M, N, K, grader::random_floats(static_cast<size_t>(M) * K, seed_a),
                 grader::random_floats(static_cast<size_t>(K) * N, seed_b)};
}

// The exact (fp64) C[i][j] and sum over k of |A[i][k] B[k][j]|.
inline std::pair<double, double> reference(const Problem& p, int i, int j) {
  double sum = 0, magnitude = 0;
  for (int k = 0; k < p.K; ++k) {
    const double product = static_cast<double>(p.A[static_cast<size_t>(i) * p.K + k]) *
                           p.B[static_cast<size_t>(k) * p.N + j];
    sum += product;
    magnitude += std::fabs(product);
  }
  return {sum, magnitude};
}

// reference() of every entry (row-major), the rows over the CPU's threads. Each sum adds the
// same products in the same order as reference(), so the values are the same to the bit.
struct Exact {
  std::vector<double> value, magnitude;
};
inline Exact exact_result(const Problem& p) {
  Exact exact{std::vector<double>(static_cast<size_t>(p.M) * p.N),
              std::vector<double>(static_cast<size_t>(p.M) * p.N)};
  grader::parallel_rows(p.M, [&](int i) {
    double* value = &exact.value[static_cast<size_t>(i) * p.N];
    double* magnitude = &exact.magnitude[static_cast<size_t>(i) * p.N];
    for (int k = 0; k < p.K; ++k) {
      const double a = p.A[static_cast<size_t>(i) * p.K + k];
      const float* b = &p.B[static_cast<size_t>(k) * p.N];
      for (int j = 0; j < p.N; ++j) {
        const double product = a * b[j];
        value[j] += product;
        magnitude[j] += std::fabs(product);
      }
    }
  });
  return exact;
}

inline std::string shape(const Problem& p) {
  return std::to_string(p.M) + " x " + std::to_string(p.N) + " x " + std::to_string(p.K);
}

// Runs `launch` on p with C poisoned (NaN); returns C.
template <typename Launch>
std::vector<float> run(const Launch& launch, const Problem& p, const char* kernel) {
  gpu::DeviceBuffer<float> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  c.fill_bytes(0xff);
  launch(a.get(), b.get(), c.get(), p.M, p.N, p.K);
  GPU_CHECK_KERNEL(kernel);
  return c.download();
}

// The first entry of `c` further from the fp64 result than the tolerance, as feedback.
inline std::optional<grader::Feedback> compare_with_fp64(const Problem& p,
                                                         const std::vector<float>& c,
                                                         const std::string& who) {
  const Exact result = exact_result(p);
  for (int i = 0; i < p.M; ++i) {
    for (int j = 0; j < p.N; ++j) {
      const double exact = result.value[static_cast<size_t>(i) * p.N + j];
      const double magnitude = result.magnitude[static_cast<size_t>(i) * p.N + j];
      const float got = c[static_cast<size_t>(i) * p.N + j];
      if (!(std::fabs(got - exact) <= kTolerance * magnitude + 1e-30)) {
        char line[200];
        std::snprintf(line, sizeof line, "%s gives C[%d][%d] = %.9g; the exact value is %.9g.",
                      who.c_str(), i, j, static_cast<double>(got), exact);
        grader::Feedback f(who + " is wrong on " + shape(p) + " (M x N x K).");
        f.line(line);
        if (std::isnan(got))
          f.line("That element was never written (C was filled with NaN).");
        else if (std::fabs(got - exact) < 1e-3 * magnitude)
          f.line(
              "The error is small but far above fp32 rounding: are the products rounded to "
              "TF32 (10 mantissa bits)?");
        return f.hint(p.M == p.N ? "check the tile indices and the K loop."
                                 : "this shape is not square: check which of M, N and K each "
                                   "index and bound uses.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace ch09::check
