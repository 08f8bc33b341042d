#include "grader/gemm/gemm_bench.hpp"

#include <cstdio>

#include "common/counters/smem_counters.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/speed.hpp"

namespace gemm {

namespace {

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

}  // namespace

template <typename T>
void absolute_values(T* x, long long n) {
  absolute_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n);
  GPU_CHECK(cudaGetLastError());
}
template void absolute_values(float* x, long long n);
template void absolute_values(__half* x, long long n);

std::optional<Mismatch> first_mismatch(const std::vector<Exact>& exact, int N,
                                       const std::vector<float>& c, const Tolerance& tolerance,
                                       double* worst, bool count_all) {
  const std::size_t columns = static_cast<std::size_t>(N);
  std::optional<Mismatch> first;
  for (std::size_t e = 0; e < c.size(); ++e) {
    const double allowed = tolerance.of(exact[e].magnitude);
    const double error = std::fabs(c[e] - exact[e].value);
    if (error <= allowed) {
      if (worst && !first && allowed > 0) *worst = std::max(*worst, error / allowed);
    } else if (first) {
      ++first->count;
    } else {
      first = Mismatch{static_cast<int>(e / columns),
                       static_cast<int>(e % columns),
                       c[e],
                       exact[e].value,
                       exact[e].magnitude,
                       allowed};
      if (!count_all) break;
    }
  }
  return first;
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

AgainstCeiling record_speed(const std::string& file, const std::string& baseline, double flops,
                            double cublas_ms, double baseline_ms, double yours_ms,
                            bool tensor_cores) {
  grader::record_measurement(file, "gemm.cublas_tflops", flops / cublas_ms / 1e9, "TFLOP/s");
  grader::record_measurement(file, "gemm.fraction_of_cublas", cublas_ms / yours_ms, "");
  grader::record_measurement(file, "gemm." + baseline + "_fraction_of_cublas",
                             cublas_ms / baseline_ms, "");
  grader::record_measurement(file, "gemm.speedup_over_" + baseline, baseline_ms / yours_ms, "x");
  const gpu::Ceilings c = grader::hardware_ceilings();
  const double peak = tensor_cores ? c.fp16_tensor_flops : c.fp32_flops;
  if (peak <= 0) return {};
  const std::string name = tensor_cores ? "the fp16 tensor-core peak" : "the fp32 FMA peak";
  const double yours = flops / (yours_ms * 1e-3) / peak, cublas = flops / (cublas_ms * 1e-3) / peak;
  grader::record_measurement(file, "gemm.fraction_of_peak", yours, "");
  grader::record_measurement(file, "gemm.cublas_fraction_of_peak", cublas, "");
  char line[300];
  std::snprintf(line, sizeof line,
                "  ceiling: %s, %.1f TFLOP/s at %.0f MHz (%s): yours %.2f of it, cuBLAS %.2f\n",
                name.c_str(), peak / 1e12, c.sm_clock_hz / 1e6,
                c.clock_measured ? "the SM clock measured in this run" : "the GPU's peak clock",
                yours, cublas);
  return {line, grader::yardstick_too_slow("cuBLAS", flops / (cublas_ms * 1e-3), peak, name)};
}

std::optional<grader::Feedback> judge_speedup(const std::string& kernel,
                                              const std::string& baseline, double speedup,
                                              const grader::Threshold& bar,
                                              const std::string& table, const std::string& hint,
                                              const std::optional<grader::Feedback>& refused) {
  if (grader::passes(bar, speedup)) {
    if (!refused) return std::nullopt;
    grader::Feedback slow_yardstick = *refused;
    return slow_yardstick.line(table);
  }
  char headline[300];
  std::snprintf(headline, sizeof headline,
                "%s is %.2fx as fast as %s, timed in the same run; it must reach %.2fx.",
                kernel.c_str(), speedup, baseline.c_str(), bar.value);
  return grader::Feedback(headline).line(table).hint(hint);
}

std::optional<grader::Feedback> operands_not_staged(const std::function<void()>& launch_one_kernel,
                                                    const std::string& kernel, int M, int N, int K,
                                                    int block_m, int block_n, int element_bytes,
                                                    const std::string& file) {
  // Staged operands: each block reads its panels of A (block_m x K) and B (K x block_n) once.
  // Read from global memory where they are multiplied, every element is read once per block
  // row or column of C that uses it, many times over (grader::kMostGlobalSectorsOverMinimum).
  const double bar = grader::kMostGlobalSectorsOverMinimum;
  const std::optional<gpu::GlobalTraffic> counted_traffic =
      gpu::global_traffic_where_counted(launch_one_kernel, "the staging of the operands");
  if (!counted_traffic) return std::nullopt;
  const gpu::GlobalTraffic& t = *counted_traffic;
  const double blocks = static_cast<double>(M / block_m) * (N / block_n);
  const double minimum = blocks * (block_m + block_n) * K * element_bytes / 32.0;
  const double loads = t.load_sectors / minimum;
  grader::record_measurement(file, "counted.global_load_sectors_over_minimum", loads, "x");
  if (loads <= bar) return std::nullopt;
  char counted[300];
  std::snprintf(counted, sizeof counted,
                "On %d x %d x %d the GPU counted %.0f sectors of global loads in %.0f requests: "
                "%.1f times the %.0f that %.0f blocks of %d x %d need, each reading its panels of "
                "A and B once.",
                M, N, K, t.load_sectors, t.load_requests, loads, minimum, blocks, block_m, block_n);
  return grader::Feedback(kernel + " is correct, but it reads its operands from global memory " +
                          "where it multiplies them, not from the block's shared tiles (at most " +
                          grader::fixed(bar, 0) + " times the minimum of 32-byte sectors passes).")
      .line(counted)
      .hint(
          "each element of A and B is read from global memory once per block, into the "
          "shared tiles; the inner product reads only the tiles.");
}

}  // namespace gemm
