// Chapter 12's own kernels and libraries, which run none of the student's code: the baseline
// the student's speed is measured against (nvcuda::wmma fragments loaded from global memory: it
// holds no TMA, no descriptor and no C tile), cuBLAS and cuBLASLt, and the operands' fill.
// Compiled once into the chapter's graders (chapter.ini: [chapter] sources), so that an edit of the
// exercise recompiles only the probes that run it (device_probes.cu).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda/cublas_handle.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/random_fill.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"

namespace ch12::probes {

namespace {

// The baseline: each warp computes a 64 x 64 part of a 128 x 256 block tile from wmma fragments
// (m16n16k16, fp32 accumulation) loaded straight from global memory; no shared memory.
__global__ void __launch_bounds__(256)
    baseline_kernel(const __half* A, const __half* B, float* C, int N, int K) {
  using namespace nvcuda;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int m0 = static_cast<int>(blockIdx.y) * kBlockM + 64 * (warp / 4);
  const int n0 = static_cast<int>(blockIdx.x) * kBlockN + 64 * (warp % 4);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][4];
  for (auto& row : acc) {
    for (auto& f : row) wmma::fill_fragment(f, 0.0f);
  }
  for (int k = 0; k + 16 <= K; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[4];
    for (int i = 0; i < 4; ++i) {
      wmma::load_matrix_sync(fa[i], A + static_cast<long long>(m0 + 16 * i) * K + k, K);
      wmma::load_matrix_sync(fb[i], B + static_cast<long long>(n0 + 16 * i) * K + k, K);
    }
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      wmma::store_matrix_sync(C + static_cast<long long>(m0 + 16 * i) * N + n0 + 16 * j, acc[i][j],
                              N, wmma::mem_row_major);
    }
  }
}

__global__ void random_halves_kernel(__half* x, long long n, unsigned long long seed) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __float2half(gpu::random_float(seed, static_cast<unsigned long long>(i)));
}

// cuBLASLt's plans, one per shape: the matmul description, the three layouts, its heuristic's
// choices and a workspace.
struct LtPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t b = nullptr, a = nullptr, c = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> choices;
  std::unique_ptr<gpu::DeviceBuffer<unsigned char>> workspace;
};

void lt_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + " failed: " + cublasGetStatusString(s));
  }
}

cublasLtHandle_t lt_handle() {
  static cublasLtHandle_t handle = [] {
    cublasLtHandle_t h = nullptr;
    lt_check(cublasLtCreate(&h), "cublasLtCreate");
    return h;
  }();
  return handle;
}

LtPlan& lt_plan(int M, int N, int K) {
  static std::map<std::tuple<int, int, int>, LtPlan> plans;
  auto found = plans.find({M, N, K});
  if (found != plans.end()) return found->second;
  LtPlan& p = plans[{M, N, K}];
  constexpr std::size_t kWorkspace = 32u << 20;
  p.workspace = std::make_unique<gpu::DeviceBuffer<unsigned char>>(kWorkspace);
  // Column-major, as cublasGemmEx below: C^T (N x M) = op(B) A^T with B stored K x N.
  lt_check(cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
           "cublasLtMatmulDescCreate");
  const cublasOperation_t transpose = CUBLAS_OP_T, as_is = CUBLAS_OP_N;
  lt_check(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                          sizeof transpose),
           "cublasLtMatmulDescSetAttribute");
  lt_check(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &as_is, sizeof as_is),
           "cublasLtMatmulDescSetAttribute");
  lt_check(cublasLtMatrixLayoutCreate(&p.b, CUDA_R_16F, K, N, K), "cublasLtMatrixLayoutCreate");
  lt_check(cublasLtMatrixLayoutCreate(&p.a, CUDA_R_16F, K, M, K), "cublasLtMatrixLayoutCreate");
  lt_check(cublasLtMatrixLayoutCreate(&p.c, CUDA_R_32F, N, M, N), "cublasLtMatrixLayoutCreate");
  cublasLtMatmulPreference_t preference = nullptr;
  lt_check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
  lt_check(
      cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                           &kWorkspace, sizeof kWorkspace),
      "cublasLtMatmulPreferenceSetAttribute");
  p.choices.resize(8);
  int found_count = 0;
  lt_check(cublasLtMatmulAlgoGetHeuristic(lt_handle(), p.op, p.b, p.a, p.c, p.c, preference, 8,
                                          p.choices.data(), &found_count),
           "cublasLtMatmulAlgoGetHeuristic");
  p.choices.resize(static_cast<std::size_t>(found_count));
  cublasLtMatmulPreferenceDestroy(preference);
  return p;
}

}  // namespace

void launch_baseline(const __half* A, const __half* B, float* C, int M, int N, int K) {
  baseline_kernel<<<dim3(N / kBlockN, M / kBlockM), 256>>>(A, B, C, N, K);
}

void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K) {
  gpu::cublas_gemm_half_abt(A, B, C, M, N, K);
}

int lt_algos(int M, int N, int K) {
  return static_cast<int>(lt_plan(M, N, K).choices.size());
}

void cublaslt_gemm(int algo, const __half* A, const __half* B, float* C, int M, int N, int K) {
  LtPlan& p = lt_plan(M, N, K);
  const float one = 1.0f, zero = 0.0f;
  lt_check(cublasLtMatmul(lt_handle(), p.op, &one, B, p.b, A, p.a, &zero, C, p.c, C, p.c,
                          &p.choices.at(static_cast<std::size_t>(algo)).algo, p.workspace->get(),
                          p.workspace->size(), nullptr),
           "cublasLtMatmul");
}

void random_halves(__half* x, long long n, unsigned long long seed) {
  random_halves_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n, seed);
  GPU_CHECK(cudaGetLastError());
}

}  // namespace ch12::probes
