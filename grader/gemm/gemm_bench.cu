#include "grader/gemm/gemm_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/parallel_rows.hpp"
#include "grader/harness/random_values.hpp"

namespace gemm {

namespace {

inline double as_double(float x) {
  return x;
}
inline double as_double(__half x) {
  return __half2float(x);
}

template <typename T>
T from_float(float x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half(x);
  } else {
    return x;
  }
}

__device__ inline float absolute(float x) {
  return fabsf(x);
}
__device__ inline __half absolute(__half x) {
  return __habs(x);
}

template <typename T>
__global__ void absolute_kernel(T* x, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = absolute(x[i]);
}

// |x| of n elements, in place on the device.
template <typename T>
void absolute_values(T* x, long long n) {
  absolute_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n);
  GPU_CHECK(cudaGetLastError());
}

// B[k][j] of either layout.
template <typename T>
const T& b_at(const Problem<T>& p, int k, int j) {
  return p.operands == Operands::kAB ? p.B[static_cast<size_t>(k) * p.N + j]
                                     : p.B[static_cast<size_t>(j) * p.K + k];
}

}  // namespace

std::string shape(int M, int N, int K) {
  return std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K);
}

template <typename T>
Problem<T> random_problem(Operands operands, int M, int N, int K, std::mt19937_64& rng) {
  const unsigned long long seed_a = rng(), seed_b = rng();
  Problem<T> p{M, N, K, operands, {}, {}};
  p.A = grader::random_values<T>(static_cast<size_t>(M) * K, seed_a, from_float<T>);
  p.B = grader::random_values<T>(static_cast<size_t>(K) * N, seed_b, from_float<T>);
  return p;
}

template <typename T>
Problem<T> small_integer_problem(Operands operands, int M, int N, int K, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  const auto draw = [&](std::size_t n) {
    std::vector<T> v(n);
    for (T& x : v) x = from_float<T>(static_cast<float>(value(rng)));
    return v;
  };
  std::vector<T> a = draw(static_cast<size_t>(M) * K);
  return Problem<T>{M, N, K, operands, std::move(a), draw(static_cast<size_t>(K) * N)};
}

template <typename T>
Exact exact_entry(const Problem<T>& p, int i, int j) {
  Exact e;
  for (int k = 0; k < p.K; ++k) {
    const double product =
        as_double(p.A[static_cast<size_t>(i) * p.K + k]) * as_double(b_at(p, k, j));
    e.value += product;
    e.magnitude += std::fabs(product);
  }
  return e;
}

template <typename T>
std::vector<Exact> exact_result(const Problem<T>& p) {
  // The operands in fp64 once (exactly), B with K contiguous for each column.
  std::vector<double> a(p.A.size()), b(p.B.size());
  std::transform(p.A.begin(), p.A.end(), a.begin(), [](T x) { return as_double(x); });
  for (int k = 0; k < p.K; ++k) {
    for (int j = 0; j < p.N; ++j) b[static_cast<size_t>(j) * p.K + k] = as_double(b_at(p, k, j));
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

template <typename T>
std::vector<float> run(const Launch<T>& launch, const Problem<T>& p, const std::string& kernel) {
  gpu::DeviceBuffer<T> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(static_cast<size_t>(p.M) * p.N);
  c.fill_bytes(0xff);
  launch(a.get(), b.get(), c.get(), p.M, p.N, p.K);
  GPU_CHECK_KERNEL(kernel.c_str());
  return c.download();
}

std::optional<Mismatch> first_mismatch(const std::vector<Exact>& exact, int N,
                                       const std::vector<float>& c, const Tolerance& tolerance,
                                       double* worst, bool count_all) {
  std::optional<Mismatch> first;
  for (std::size_t e = 0; e < c.size(); ++e) {
    const double allowed = tolerance.of(exact[e].magnitude);
    const double error = std::fabs(c[e] - exact[e].value);
    if (error <= allowed) {
      if (worst && !first && allowed > 0) *worst = std::max(*worst, error / allowed);
      continue;
    }
    if (first) {
      ++first->count;
      continue;
    }
    first = Mismatch{static_cast<int>(e / static_cast<size_t>(N)),
                     static_cast<int>(e % static_cast<size_t>(N)),
                     c[e],
                     exact[e].value,
                     exact[e].magnitude,
                     allowed};
    if (!count_all) break;
  }
  return first;
}

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

template <typename T>
std::optional<Mismatch> sampled_mismatch(const Problem<T>& p, const std::vector<float>& cublas,
                                         const Tolerance& tolerance, std::mt19937_64& rng,
                                         double* worst, int samples) {
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

grader::Feedback cublas_inaccurate(const Mismatch& m, const std::string& where) {
  return grader::Feedback("cuBLAS itself is not fp32-accurate here: C[" + std::to_string(m.i) +
                          "][" + std::to_string(m.j) + "] = " + std::to_string(m.got) + ", exact " +
                          std::to_string(m.exact) + where + ".");
}

std::string speed_line(const std::string& name, double ms, double flops, double cublas_ms,
                       int width, const std::string& suffix) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-*s %8.3f ms  %6.1f TFLOP/s  %5.2f of cuBLAS", width,
                name.c_str(), ms, flops / ms / 1e9, cublas_ms / ms);
  return line + suffix + "\n";
}

void record_speed(const std::string& file, const std::string& baseline, double flops,
                  double cublas_ms, double baseline_ms, double yours_ms) {
  grader::record_measurement(file, "gemm.cublas_tflops", flops / cublas_ms / 1e9, "TFLOP/s");
  grader::record_measurement(file, "gemm.fraction_of_cublas", cublas_ms / yours_ms, "");
  grader::record_measurement(file, "gemm." + baseline + "_fraction_of_cublas",
                             cublas_ms / baseline_ms, "");
  grader::record_measurement(file, "gemm.speedup_over_" + baseline, baseline_ms / yours_ms, "x");
}

std::optional<grader::Feedback> judge_speedup(const std::string& kernel,
                                              const std::string& baseline, double speedup,
                                              const grader::Threshold& bar,
                                              const std::string& table, const std::string& hint) {
  if (grader::passes(bar, speedup)) return std::nullopt;
  char headline[300];
  std::snprintf(headline, sizeof headline,
                "%s is %.2fx as fast as %s, timed in the same run; it must reach %.2fx.",
                kernel.c_str(), speedup, baseline.c_str(), bar.value);
  return grader::Feedback(headline).line(table).hint(hint);
}

// The element types of the workbook's GEMMs.
#define GEMM_BENCH_TYPE(T)                                                                        \
  template Problem<T> random_problem(Operands, int, int, int, std::mt19937_64&);                  \
  template Problem<T> small_integer_problem(Operands, int, int, int, std::mt19937_64&);           \
  template Exact exact_entry(const Problem<T>&, int, int);                                        \
  template std::vector<Exact> exact_result(const Problem<T>&);                                    \
  template std::vector<float> run(const Launch<T>&, const Problem<T>&, const std::string&);       \
  template WithCublas run_with_cublas(const Launch<T>&, const std::string&, const Launch<T>&,     \
                                      const Problem<T>&);                                         \
  template std::optional<Mismatch> sampled_mismatch(const Problem<T>&, const std::vector<float>&, \
                                                    const Tolerance&, std::mt19937_64&, double*,  \
                                                    int);                                         \
  template std::optional<Mismatch> disagreement(const Problem<T>&, const WithCublas&,             \
                                                const Tolerance&);
GEMM_BENCH_TYPE(float)
GEMM_BENCH_TYPE(__half)
#undef GEMM_BENCH_TYPE

}  // namespace gemm
