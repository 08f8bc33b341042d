// Chapter 09, the reference solution's own GPU checks (`<grader> reference`, solution mode): the
// variants of exercise 2's kernel that the lesson compares (section 2), each the reference with
// one design choice undone ([ablation.NAME] of solutions/09_tiled_gemm/chapter.ini), checked
// against fp64 and timed against cuBLAS and the classic kernel in the same run; the simplest of
// them must clear the student's bar, which the bar's margin is set from.
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/09_tiled_gemm/device_probes.hpp"
#include "grader/09_tiled_gemm/gemm_check.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"

// Each ablation's unit holds the device probes and the edited reference in namespace ch09_NAME.
namespace ch09_single_buffer_8quads::probes {
void launch_yours(const float* A, const float* B, float* C, int M, int N, int K);
}
namespace ch09_s_mod_2_8quads::probes {
void launch_yours(const float* A, const float* B, float* C, int M, int N, int K);
}
namespace ch09_s_mod_2_pairs::probes {
void launch_yours(const float* A, const float* B, float* C, int M, int N, int K);
}
namespace ch09_unrolled_8quads::probes {
void launch_yours(const float* A, const float* B, float* C, int M, int N, int K);
}

namespace {

using grader::chapter::kMeasurementFile;
using Launch = void (*)(const float*, const float*, float*, int, int, int);

struct Variant {
  const char* name;  // the ablation's, as the measurements name it: variants.<name>.*
  const char* row;   // as the table prints it
  Launch launch;
};

// The lesson's variants; lane pairs with the unrolled loop is the reference itself.
const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = {
      {"single_buffer_8quads", "one buffer, 8 quads",
       ch09_single_buffer_8quads::probes::launch_yours},
      {"s_mod_2_8quads", "s % 2 buffers, 8 quads", ch09_s_mod_2_8quads::probes::launch_yours},
      {"s_mod_2_pairs", "s % 2 buffers, lane pairs", ch09_s_mod_2_pairs::probes::launch_yours},
      {"unrolled_8quads", "unrolled by two, 8 quads", ch09_unrolled_8quads::probes::launch_yours},
  };
  return all;
}

}  // namespace

TEST_CASE("ch09 reference: the lesson's variants of exercise 2, checked and timed", "[reference]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Each variant first gives the right results.
  std::mt19937_64 rng(grader::run_seed() + 40);
  for (const Variant& v : variants()) {
    for (const auto& [M, N, K] :
         {std::tuple{128, 128, 8}, std::tuple{256, 384, 40}, std::tuple{384, 128, 48}}) {
      const ch09::check::Problem p = ch09::check::random_problem(M, N, K, rng);
      const auto problem = ch09::check::compare_with_fp64(p, gemm::run(v.launch, p, v.row), v.row);
      GRADER_EXPECT(!problem, *problem);
    }
  }
  // Their speed, in turns with cuBLAS, the classic kernel and the reference.
  constexpr int n = 4096;
  std::mt19937_64 fixed(5);
  const ch09::check::Problem p = ch09::check::random_problem(n, n, n, fixed);
  gpu::DeviceBuffer<float> a(p.A), b(p.B), c(static_cast<size_t>(n) * n);
  const auto launch = [&](Launch kernel) {
    return [&a, &b, &c, kernel] { kernel(a.get(), b.get(), c.get(), n, n, n); };
  };
  std::vector<grader::TimedKernel> kernels = {
      {"cublasSgemm", launch(ch09::probes::cublas_sgemm)},
      {"classic 32 x 32 tiles", launch(ch09::probes::launch_classic)}};
  for (const Variant& v : variants()) kernels.push_back({v.row, launch(v.launch)});
  kernels.push_back(
      {"unrolled by two, lane pairs (reference)", launch(ch09::probes::launch_yours)});
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 21);
  GPU_CHECK(cudaGetLastError());
  const double flops = 2.0 * n * n * n, cublas_ms = rows[0].median_ms,
               classic_ms = rows[1].median_ms;
  std::printf("SGEMM 4096^3, fp32, median of 21 launches each, in turns:\n");
  for (const grader::SpeedRow& r : rows) {
    std::printf("  %-40s %8.3f ms  %6.1f TFLOP/s  %5.3f of cuBLAS  %5.2fx the classic kernel\n",
                r.name.c_str(), r.median_ms, flops / r.median_ms / 1e9, cublas_ms / r.median_ms,
                classic_ms / r.median_ms);
  }
  for (std::size_t k = 0; k < variants().size(); ++k) {
    const std::string name = std::string("variants.") + variants()[k].name;
    grader::record_measurement(kMeasurementFile, name + ".fraction_of_cublas",
                               cublas_ms / rows[2 + k].median_ms, "");
    grader::record_measurement(kMeasurementFile, name + ".speedup_over_classic",
                               classic_ms / rows[2 + k].median_ms, "x");
  }
  grader::record_measurement(kMeasurementFile, "variants.unrolled_pairs.fraction_of_cublas",
                             cublas_ms / rows.back().median_ms, "");
  // The simplest kernel the skeleton's outline allows clears the student's bar.
  const grader::Threshold& bar = grader::chapter::threshold("speedup_over_classic");
  const double simplest = classic_ms / rows[2].median_ms;
  char headline[200];
  std::snprintf(headline, sizeof headline,
                "The simplest kernel the outline allows (one buffer, two barriers, 8 quads) is "
                "%.2fx the classic kernel; the student's bar is %.2fx.",
                simplest, bar.value);
  GRADER_EXPECT(grader::passes(bar, simplest), grader::Feedback(headline));
}
