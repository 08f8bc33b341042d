// Chapter 12, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// 8192^3 figure the lesson shows beside the graded 4096^3 one.
#include <cuda_fp16.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/speed.hpp"

TEST_CASE("ch12 reference: 8192^3 against cuBLAS", "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto why = ch12::probes::no_wgmma_here()) GRADER_SKIP(*why + ".");
  constexpr int n = 8192;
  const std::size_t count = static_cast<std::size_t>(n) * n;
  gpu::DeviceBuffer<__half> a(count), b(count);
  ch12::probes::random_halves(a.get(), n * static_cast<long long>(n), 7);
  ch12::probes::random_halves(b.get(), n * static_cast<long long>(n), 8);
  gpu::DeviceBuffer<float> c(count);
  std::vector<grader::TimedKernel> kernels = {
      {"cublasGemmEx", [&] { ch12::probes::cublas_gemm(a.get(), b.get(), c.get(), n, n, n); }}};
  const int lt = std::min(4, ch12::probes::lt_algos(n, n, n));
  for (int algo = 0; algo < lt; ++algo) {
    kernels.push_back({"cuBLASLt, heuristic choice " + std::to_string(algo), [&, algo] {
                         ch12::probes::cublaslt_gemm(algo, a.get(), b.get(), c.get(), n, n, n);
                       }});
  }
  kernels.push_back({"reference, k128B", [&] {
                       ch12::probes::launch_yours(ch12::OperandLayout::k128B, a.get(), b.get(),
                                                  c.get(), n, n, n);
                     }});
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 11);
  double cublas_ms = rows[0].median_ms;
  for (std::size_t r = 1; r + 1 < rows.size(); ++r)
    cublas_ms = std::min(cublas_ms, rows[r].median_ms);
  const double flops = 2.0 * n * n * n, yours_ms = rows.back().median_ms;
  grader::record_measurement(grader::chapter::kMeasurementFile, "gemm8192.tflops",
                             flops / yours_ms / 1e9, "TFLOP/s");
  grader::record_measurement(grader::chapter::kMeasurementFile, "gemm8192.cublas_tflops",
                             flops / cublas_ms / 1e9, "TFLOP/s");
  grader::record_measurement(grader::chapter::kMeasurementFile, "gemm8192.fraction_of_cublas",
                             cublas_ms / yours_ms, "");
  for (const grader::SpeedRow& r : rows) {
    std::cout << gemm::speed_line("8192^3 " + r.name, r.median_ms, flops, cublas_ms, 39);
  }
  GPU_CHECK(cudaDeviceSynchronize());
  SUCCEED();
}
