// Launches the reference kernel once per operand layout (2048^3), for operand_reads.py to profile
// wgmma's own shared-memory reads with Nsight Compute.
#include <cstdio>

#include "solutions/12_wgmma_tma_gemm/wgmma_tma_gemm_exercise.cu"

namespace {

__global__ void fill_kernel(__half* x, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __float2half(static_cast<float>(i * 2654435761ll % 7) - 3.0f);
}

bool ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    std::fprintf(stderr, "operand_reads: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

template <ch12::OperandLayout Layout>
bool run(const __half* A, const __half* B, float* C, int n) {
  using namespace ch12;
  if (!ok(cudaFuncSetAttribute(wgmma_gemm_kernel<Layout, kStages>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes),
          "cudaFuncSetAttribute"))
    return false;
  const CUtensorMap a = make_operand_map(Layout, A, n, n, kBlockM, "A"),
                    b = make_operand_map(Layout, B, n, n, kBlockN, "B");
  wgmma_gemm_kernel<Layout, kStages>
      <<<(n / kBlockM) * (n / kBlockN), kThreads, kSharedBytes>>>(a, b, C, n, n, n);
  return ok(cudaDeviceSynchronize(), "the reference kernel");
}

}  // namespace

int main() {
  constexpr int n = 2048;
  constexpr long long count = static_cast<long long>(n) * n;
  __half *A = nullptr, *B = nullptr;
  float* C = nullptr;
  if (!ok(cudaMalloc(&A, count * sizeof(__half)), "cudaMalloc") ||
      !ok(cudaMalloc(&B, count * sizeof(__half)), "cudaMalloc") ||
      !ok(cudaMalloc(&C, count * sizeof(float)), "cudaMalloc"))
    return 1;
  fill_kernel<<<static_cast<unsigned>(count / 256), 256>>>(A, count);
  fill_kernel<<<static_cast<unsigned>(count / 256), 256>>>(B, count);
  // In the order of ch12::kOperandLayouts, which operand_reads.py reads the profile in.
  const bool all = run<ch12::OperandLayout::k128B>(A, B, C, n) &&
                   run<ch12::OperandLayout::k64B>(A, B, C, n) &&
                   run<ch12::OperandLayout::k32B>(A, B, C, n) &&
                   run<ch12::OperandLayout::kInterleave>(A, B, C, n);
  std::printf("%d %d %d %d\n", n, ch12::kBlockM, ch12::kBlockN, ch12::kConsumers);
  return all ? 0 : 1;
}
