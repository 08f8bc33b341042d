// Chapter 12, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// grader's model of exercise 2a against wgmma on every pairing a run may draw; the 8192^3 figure
// the lesson shows beside the graded 4096^3 one, and the two design choices the lesson explains
// (section 3), each undone in an ablation of the reference ([ablation.NAME] of
// solutions/12_wgmma_tma_gemm/chapter.ini), checked against the reference's C and timed beside it.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/speed.hpp"

// Each ablation's unit holds the device probes and the edited reference in namespace ch12_NAME,
// with that namespace's own OperandLayout (the same values as ch12's).
namespace ch12_runtime_ring {
enum class OperandLayout : int;
namespace probes {
void launch_yours(OperandLayout layout, const __half* A, const __half* B, float* C, int M, int N,
                  int K, int stages);
}
}  // namespace ch12_runtime_ring
namespace ch12_row_order {
enum class OperandLayout : int;
namespace probes {
void launch_yours(OperandLayout layout, const __half* A, const __half* B, float* C, int M, int N,
                  int K, int stages);
}
}  // namespace ch12_row_order

namespace {

using grader::chapter::kMeasurementFile;

// One launch of n x n x n in k128B with the longest ring, through a unit's launch_yours.
using Launch = void (*)(const __half* A, const __half* B, float* C, int n);
template <typename Layout,
          void (*launch_yours)(Layout, const __half*, const __half*, float*, int, int, int, int)>
void launch_k128B(const __half* A, const __half* B, float* C, int n) {
  launch_yours(static_cast<Layout>(ch12::OperandLayout::k128B), A, B, C, n, n, n, ch12::kStages);
}

struct Design {
  const char* name;  // as the measurements name it: design.<name>.*
  const char* row;   // as the table prints it
  Launch launch;
};

// The reference first: the others are timed against it.
const Design kDesigns[] = {
    {"reference", "reference", launch_k128B<ch12::OperandLayout, ch12::probes::launch_yours>},
    {"runtime_ring", "the ring's length read at run time",
     launch_k128B<ch12_runtime_ring::OperandLayout, ch12_runtime_ring::probes::launch_yours>},
    {"row_order", "blocks along a row of N-tiles",
     launch_k128B<ch12_row_order::OperandLayout, ch12_row_order::probes::launch_yours>},
};

}  // namespace

TEST_CASE("ch12 reference: exercise 2a's model reads as wgmma does, on every pairing",
          "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto why = ch12::probes::no_wgmma_here()) GRADER_SKIP(*why + ".");
  int pairings = 0, right = 0;
  for (const ch12::Pairing& p : ch12::spec::pairing_pool()) {
    const int wrong = ch12::probes::wrong_elements_of_pairing(p, 11u + pairings);
    const bool model = ch12::spec::reads_as_written(p);
    ++pairings, right += model ? 1 : 0;
    INFO(ch12::spec::pairing_code(p) << ": the GPU got " << wrong << " elements wrong");
    CHECK(model == (wrong == 0));
  }
  std::cout << "exercise 2a's pool: " << pairings << " pairings run, " << right
            << " of them read right by the model\n";
}

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

TEST_CASE("ch12 reference: the given design choices undone, checked and timed", "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto why = ch12::probes::no_wgmma_here()) GRADER_SKIP(*why + ".");
  for (const int n : {4096, 8192}) {
    const std::size_t count = static_cast<std::size_t>(n) * n;
    gpu::DeviceBuffer<__half> a(count), b(count);
    ch12::probes::random_halves(a.get(), n * static_cast<long long>(n), 11);
    ch12::probes::random_halves(b.get(), n * static_cast<long long>(n), 12);
    gpu::DeviceBuffer<float> c(count);
    // Each computes the reference's C, bit for bit: only which block takes which tile, and how
    // a consumer finds its stage, differ.
    std::vector<float> reference_c;
    for (const Design& d : kDesigns) {
      c.fill_bytes(0xff);
      d.launch(a.get(), b.get(), c.get(), n);
      GPU_CHECK(cudaDeviceSynchronize());
      std::vector<float> got = c.download();
      if (reference_c.empty()) {
        reference_c = std::move(got);
        continue;
      }
      if (std::memcmp(got.data(), reference_c.data(), count * sizeof(float)) != 0) {
        std::size_t at = 0;
        while (std::memcmp(&got[at], &reference_c[at], sizeof(float)) == 0) ++at;
        GRADER_FAIL(grader::Feedback(std::string(d.name) + "'s C differs from the reference's at " +
                                     std::to_string(n) + "^3: C[" + std::to_string(at / n) + "][" +
                                     std::to_string(at % n) + "] is " + std::to_string(got[at]) +
                                     ", the reference's " + std::to_string(reference_c[at]) + "."));
      }
    }
    std::vector<grader::TimedKernel> kernels;
    for (const Design& d : kDesigns) {
      kernels.push_back(
          {d.row, [&a, &b, &c, n, launch = d.launch] { launch(a.get(), b.get(), c.get(), n); }});
    }
    const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 21);
    GPU_CHECK(cudaGetLastError());
    const double flops = 2.0 * n * n * n, reference_ms = rows[0].median_ms;
    std::printf("%d^3, k128B, a ring of %d stages, median of 21 launches each, in turns:\n", n,
                ch12::kStages);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double ms = rows[k].median_ms;
      std::printf("  %-36s %8.3f ms  %6.1f TFLOP/s  %5.3fx the reference's time\n",
                  rows[k].name.c_str(), ms, flops / ms / 1e9, ms / reference_ms);
      const std::string name =
          std::string("design.") + kDesigns[k].name + "." + std::to_string(n) + ".";
      grader::record_measurement(kMeasurementFile, name + "tflops", flops / ms / 1e9, "TFLOP/s");
      if (k > 0) {
        grader::record_measurement(kMeasurementFile, name + "time_over_reference",
                                   ms / reference_ms, "");
      }
    }
  }
  GPU_CHECK(cudaDeviceSynchronize());
  SUCCEED();
}
