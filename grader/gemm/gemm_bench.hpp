// The GEMM chapters' shared bench: random operands, the exact (fp64) result, the entries a
// kernel gets wrong, a kernel beside cuBLAS on the device, and the lines, measurements and
// verdict of a speed table. The element type (float or __half) and B's layout are parameters;
// what a check says about a wrong entry is its chapter's.
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/parallel_rows.hpp"
#include "grader/harness/random_values.hpp"
#include "grader/harness/threshold.hpp"

namespace gemm {

/// How B is stored; A is M x K and C is M x N, both row-major, C in fp32.
enum class Operands {
  kAB,   ///< B is K x N row-major: C = A B.
  kABt,  ///< B is N x K row-major (K-major, as A is): C = A B^T.
};

/// A problem on the host, its operands in the element type the kernel reads (float or __half).
template <typename T>
struct Problem {
  int M = 0, N = 0, K = 0;
  Operands operands = Operands::kAB;
  std::vector<T> A, B;
  double a(int i, int k) const { return static_cast<float>(A[static_cast<size_t>(i) * K + k]); }
  double b(int k, int j) const {
    return static_cast<float>(operands == Operands::kAB ? B[static_cast<size_t>(k) * N + j]
                                                        : B[static_cast<size_t>(j) * K + k]);
  }
};

/// "M x N x K".
template <typename T>
std::string shape(const Problem<T>& p) {
  return std::to_string(p.M) + " x " + std::to_string(p.N) + " x " + std::to_string(p.K);
}

/// Launches a GEMM on device buffers (launch only); the bench takes T from the problem.
template <typename T>
struct LaunchOf {
  using type = std::function<void(const T* A, const T* B, float* C, int M, int N, int K)>;
};
template <typename T>
using Launch = typename LaunchOf<T>::type;

/// Operands uniform in [-1, 1), rounded to T: grader::random_values of one seed per operand,
/// A's seed drawn from `rng` first.
template <typename T>
Problem<T> random_problem(Operands operands, int M, int N, int K, std::mt19937_64& rng) {
  const unsigned long long seed_a = rng(), seed_b = rng();
  const auto round = [](float x) { return static_cast<T>(x); };  // __half: __float2half
  Problem<T> p{M, N, K, operands, {}, {}};
  p.A = grader::random_values<T>(static_cast<size_t>(M) * K, seed_a, round);
  p.B = grader::random_values<T>(static_cast<size_t>(K) * N, seed_b, round);
  return p;
}

/// Operands of whole numbers from -4 to 4, drawn one by one from `rng`, A's first: every product
/// and every sum of fewer than 2^20 of them is exact in fp32, so C must be the exact result.
template <typename T>
Problem<T> small_integer_problem(Operands operands, int M, int N, int K, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  Problem<T> p{M, N, K, operands, {}, {}};
  p.A.resize(static_cast<size_t>(M) * K);
  p.B.resize(static_cast<size_t>(K) * N);
  for (std::vector<T>* operand : {&p.A, &p.B}) {
    for (T& x : *operand) x = static_cast<T>(static_cast<float>(value(rng)));
  }
  return p;
}

/// The exact C[i][j] and the sum over k of |a b|, which fp32 rounding scales with.
struct Exact {
  double value = 0, magnitude = 0;
};
template <typename T>
Exact exact_entry(const Problem<T>& p, int i, int j) {
  Exact e;
  for (int k = 0; k < p.K; ++k) {
    const double product = p.a(i, k) * p.b(k, j);
    e.value += product;
    e.magnitude += std::fabs(product);
  }
  return e;
}

/// exact_entry() of every entry, row-major, the rows over the CPU's threads: the operands in
/// fp64 once, B's columns contiguous, then the same sums in the same order, the same to the bit.
template <typename T>
std::vector<Exact> exact_result(const Problem<T>& p) {
  std::vector<double> a(p.A.size()), b(p.B.size());
  std::transform(p.A.begin(), p.A.end(), a.begin(), [](T x) { return static_cast<float>(x); });
  for (int k = 0; k < p.K; ++k) {
    for (int j = 0; j < p.N; ++j) b[static_cast<size_t>(j) * p.K + k] = p.b(k, j);
  }
  std::vector<Exact> exact(static_cast<size_t>(p.M) * p.N);
  grader::parallel_rows(p.M, [&](int i) {
    const double* row = &a[static_cast<size_t>(i) * p.K];
    for (int j = 0; j < p.N; ++j) {
      const double* column = &b[static_cast<size_t>(j) * p.K];
      Exact& e = exact[static_cast<size_t>(i) * p.N + j];
      for (int k = 0; k < p.K; ++k) {
        const double product = row[k] * column[k];
        e.value += product;
        e.magnitude += std::fabs(product);
      }
    }
  });
  return exact;
}

/// How far a result may be from another: `relative` of its sum of |a b|, plus `absolute`.
struct Tolerance {
  double relative = 0, absolute = 0;
  double of(double magnitude) const { return relative * magnitude + absolute; }
};

/// An entry of C out of tolerance.
struct Mismatch {
  int i = 0, j = 0;
  float got = 0;
  double exact = 0, magnitude = 0;  ///< exact_entry()'s.
  double allowed = 0;               ///< The tolerance it missed.
  long long count = 1;              ///< Entries out of tolerance, where counted (else 1).
};

/// Runs `launch` on p with C filled with NaN first; returns C, or throws naming `kernel`.
template <typename T>
std::vector<float> run(const Launch<T>& launch, const Problem<T>& p, const std::string& kernel) {
  gpu::DeviceBuffer<T> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  c.fill_bytes(0xff);
  launch(a.get(), b.get(), c.get(), p.M, p.N, p.K);
  GPU_CHECK_KERNEL(kernel.c_str());
  return c.download();
}

/// The first entry of `c` (N columns, row by row) further from `exact` than `tolerance`, or
/// nothing. With `count_all`, Mismatch::count says how many are. `worst`, when given, grows to
/// the largest error, in tolerances, of the entries before the first one out.
std::optional<Mismatch> first_mismatch(const std::vector<Exact>& exact, int N,
                                       const std::vector<float>& c, const Tolerance& tolerance,
                                       double* worst = nullptr, bool count_all = false);

/// |x| of n elements (float or __half), in place on the device.
template <typename T>
void absolute_values(T* x, long long n);

/// A kernel and cuBLAS on the same operands, on the device: the kernel's C (filled with NaN
/// first), cuBLAS's, and cuBLAS's on |A| and |B| (each entry's sum of |a b|, for its tolerance).
struct WithCublas {
  std::vector<float> yours, cublas, magnitude;
};
template <typename T>
WithCublas run_with_cublas(const Launch<T>& yours, const std::string& kernel,
                           const Launch<T>& cublas, const Problem<T>& p) {
  gpu::DeviceBuffer<T> a(p.A), b(p.B);
  const size_t count = static_cast<size_t>(p.M) * p.N;
  gpu::DeviceBuffer<float> y(count), c(count), m(count);
  y.fill_bytes(0xff);
  yours(a.get(), b.get(), y.get(), p.M, p.N, p.K);
  GPU_CHECK_KERNEL(kernel.c_str());
  cublas(a.get(), b.get(), c.get(), p.M, p.N, p.K);
  absolute_values(a.get(), static_cast<long long>(a.size()));
  absolute_values(b.get(), static_cast<long long>(b.size()));
  cublas(a.get(), b.get(), m.get(), p.M, p.N, p.K);
  GPU_CHECK(cudaDeviceSynchronize());
  return {y.download(), c.download(), m.download()};
}

/// cuBLAS's C against exact_entry() on `samples` entries drawn from `rng` (a row, then a
/// column): the first out of `tolerance`, or nothing. `worst`, when given, grows to the largest
/// error, in tolerances, of the entries drawn.
template <typename T>
std::optional<Mismatch> sampled_mismatch(const Problem<T>& p, const std::vector<float>& cublas,
                                         const Tolerance& tolerance, std::mt19937_64& rng,
                                         double* worst = nullptr, int samples = 256) {
  std::uniform_int_distribution<int> row(0, p.M - 1), col(0, p.N - 1);
  for (int sample = 0; sample < samples; ++sample) {
    const int i = row(rng), j = col(rng);
    const Exact e = exact_entry(p, i, j);
    const float got = cublas[static_cast<size_t>(i) * p.N + j];
    const double allowed = tolerance.of(e.magnitude), error = std::fabs(got - e.value);
    if (worst) *worst = std::max(*worst, error / allowed);
    if (!(error <= allowed)) return Mismatch{i, j, got, e.value, e.magnitude, allowed};
  }
  return std::nullopt;
}

/// The first entry where the kernel's and cuBLAS's results differ by more than `tolerance` of
/// the sum of |a b| cuBLAS measured (twice one result's: both are rounded), or nothing.
template <typename T>
std::optional<Mismatch> disagreement(const Problem<T>& p, const WithCublas& results,
                                     const Tolerance& tolerance) {
  for (std::size_t e = 0; e < results.yours.size(); ++e) {
    const double allowed = tolerance.of(results.magnitude[e]);
    if (std::fabs(static_cast<double>(results.yours[e]) - results.cublas[e]) <= allowed) continue;
    const int i = static_cast<int>(e / static_cast<size_t>(p.N));
    const int j = static_cast<int>(e % static_cast<size_t>(p.N));
    const Exact exact = exact_entry(p, i, j);
    return Mismatch{i, j, results.yours[e], exact.value, exact.magnitude, allowed};
  }
  return std::nullopt;
}

/// "cuBLAS itself is not fp32-accurate here: C[i][j] = got, exact value<where>."
grader::Feedback cublas_inaccurate(const Mismatch& m, const std::string& where = "");

/// A row of a speed table: "  NAME  T ms  F TFLOP/s  X of cuBLAS", NAME padded to `width`, then
/// `suffix` and a line break.
std::string speed_line(const std::string& name, double ms, double flops, double cublas_ms,
                       int width = 28, const std::string& suffix = "");

/// What a GEMM's timing says beside its in-run ratios: how near the hardware's ceiling it ran.
struct AgainstCeiling {
  std::string line;  ///< "  ceiling: ..." and a line break; empty where the peak is not known.
  std::optional<grader::Feedback> refused;  ///< cuBLAS below half of the ceiling in this run.
};

/// Records in `file` gemm.cublas_tflops, gemm.fraction_of_cublas (yours),
/// gemm.<baseline>_fraction_of_cublas, gemm.speedup_over_<baseline>, and where the peak is known
/// gemm.fraction_of_peak and gemm.cublas_fraction_of_peak: the fp16 tensor-core peak when
/// `tensor_cores`, else the fp32 FMA peak, at the SM clock grader::hardware_ceilings() takes.
AgainstCeiling record_speed(const std::string& file, const std::string& baseline, double flops,
                            double cublas_ms, double baseline_ms, double yours_ms,
                            bool tensor_cores);

/// The verdict on `kernel`'s speedup over `baseline` (words: "the classic kernel"), timed in
/// the same run, against `bar`, with the table and the hint; when it passes, `refused` (a slow
/// yardstick, AgainstCeiling) where there is one; nothing else.
std::optional<grader::Feedback> judge_speedup(
    const std::string& kernel, const std::string& baseline, double speedup,
    const grader::Threshold& bar, const std::string& table, const std::string& hint,
    const std::optional<grader::Feedback>& refused = std::nullopt);

/// The feedback when a correct GEMM `kernel` does not stage its operands in shared memory: the
/// hardware counted, in the one launch `launch_one_kernel` makes on an M x N x K problem, more
/// than twice the global load sectors (ld.global and cp.async; TMA is not seen) that blocks of
/// `block_m` x `block_n` outputs need when each reads its panels of A and B once
/// (`element_bytes` each). Records counted.global_load_sectors_over_minimum in `file`. Nothing
/// when it stages them, or when counters cannot be read (it says so).
std::optional<grader::Feedback> operands_not_staged(const std::function<void()>& launch_one_kernel,
                                                    const std::string& kernel, int M, int N, int K,
                                                    int block_m, int block_n, int element_bytes,
                                                    const std::string& file);

}  // namespace gemm
