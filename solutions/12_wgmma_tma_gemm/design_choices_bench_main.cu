// Times chapter 12's reference kernel against variants that each undo one of the two design
// choices the lesson (section 3) and the interface explain, in turns in one process, and writes
// the ratios as a measurement file. Built and run by design_choices_bench.py, which compiles each
// variant from the reference solution's own source (one text change each) in its own namespace.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"

#define VARIANT_LAUNCHER(space)                                                                   \
  namespace space {                                                                               \
  void launch_variant(const CUtensorMap& a, const CUtensorMap& b, float* C, int M, int N, int K); \
  }
VARIANT_LAUNCHER(ch12_reference)
VARIANT_LAUNCHER(ch12_runtime_ring)
VARIANT_LAUNCHER(ch12_row_order)

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "design_choices_bench: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

using Launch = void (*)(const CUtensorMap&, const CUtensorMap&, float*, int, int, int);
struct Variant {
  const char* key;
  Launch launch;
};
const Variant kVariants[] = {{"reference", ch12_reference::launch_variant},
                             {"runtime_ring", ch12_runtime_ring::launch_variant},
                             {"row_order", ch12_row_order::launch_variant}};
constexpr int kVariantCount = sizeof kVariants / sizeof kVariants[0];

// Medians of `rounds` launches of each variant, the variants taking turns.
std::vector<double> medians_in_turns(const CUtensorMap& a, const CUtensorMap& b, float* C, int n,
                                     int rounds) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<std::vector<float>> times(kVariantCount);
  for (int r = -2; r < rounds; ++r) {  // two rounds of warm-up
    for (int v = 0; v < kVariantCount; ++v) {
      check(cudaEventRecord(start), "cudaEventRecord");
      kVariants[v].launch(a, b, C, n, n, n);
      check(cudaEventRecord(stop), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "a variant's launch");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      if (r >= 0) times[v].push_back(ms);
    }
  }
  std::vector<double> medians;
  for (auto& t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  return medians;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.tsv\n", argv[0]);
    return 2;
  }
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  if (p.major != 9) {
    std::fprintf(stderr, "design_choices_bench: needs a compute capability 9.0 GPU, not %s\n",
                 p.name);
    return 1;
  }
  std::string lines;
  char line[256];
  for (const int n : {4096, 8192}) {
    const size_t count = static_cast<size_t>(n) * n;
    std::vector<__half> host(2 * count);
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (__half& x : host) x = __float2half(uniform(rng));
    __half* operands = nullptr;
    float* C = nullptr;
    check(cudaMalloc(&operands, host.size() * sizeof(__half)), "cudaMalloc");
    check(cudaMalloc(&C, (kVariantCount + 1) * count * sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(operands, host.data(), host.size() * sizeof(__half), cudaMemcpyHostToDevice),
          "cudaMemcpy");
    const __half *A = operands, *B = operands + count;
    const CUtensorMap a = ch12::make_operand_map(ch12::OperandLayout::k128B, A, n, n, ch12::kBlockM,
                                                 "A"),
                      b = ch12::make_operand_map(ch12::OperandLayout::k128B, B, n, n, ch12::kBlockN,
                                                 "B");
    // Each variant computes the same C, bit for bit: only where and when it works differs.
    std::vector<std::vector<float>> results;
    for (int v = 0; v < kVariantCount; ++v) {
      float* out = C + (v + 1) * count;
      check(cudaMemset(out, 0xff, count * sizeof(float)), "cudaMemset");
      kVariants[v].launch(a, b, out, n, n, n);
      check(cudaDeviceSynchronize(), kVariants[v].key);
      results.emplace_back(count);
      check(cudaMemcpy(results.back().data(), out, count * sizeof(float), cudaMemcpyDeviceToHost),
            "cudaMemcpy");
      if (results.back() != results.front()) {
        std::fprintf(stderr, "design_choices_bench: %s's C differs from the reference's at %d^3\n",
                     kVariants[v].key, n);
        return 1;
      }
    }
    const std::vector<double> ms = medians_in_turns(a, b, C, n, 21);
    for (int v = 0; v < kVariantCount; ++v) {
      std::snprintf(line, sizeof line, "%s.%d.tflops\t%g\tTFLOP/s\n", kVariants[v].key, n,
                    2.0 * n * n * n / ms[v] / 1e9);
      lines += line;
      std::snprintf(line, sizeof line, "%s.%d.time_over_reference\t%g\t\n", kVariants[v].key, n,
                    ms[v] / ms[0]);
      lines += line;
    }
    check(cudaFree(operands), "cudaFree");
    check(cudaFree(C), "cudaFree");
  }
  FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) {
    std::fprintf(stderr, "design_choices_bench: cannot write %s\n", argv[1]);
    return 1;
  }
  std::fprintf(
      out,
      "# Written by solutions/12_wgmma_tma_gemm/design_choices_bench.py; do not edit by hand.\n"
      "# GPU: %s (sm_%d%d, %d SMs)\n# quantity\tvalue\tunit\n%s",
      p.name, p.major, p.minor, p.multiProcessorCount, lines.c_str());
  std::fclose(out);
  std::fputs(lines.c_str(), stdout);
  return 0;
}
