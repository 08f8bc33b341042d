// Chapter 09, the maintainers' probes (solution mode: grader/tools/make_grader_unit.py pastes
// this file after the device probes, before the exercise, into the grader under grade only). See
// reference_probes.hpp.
#include <stdexcept>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "solutions/09_tiled_gemm/reference_probes.hpp"

namespace ch09::reference_probes {

namespace {

template <Mapping kMapping>
__device__ int owned_row(int t, int half) {
  if constexpr (kMapping == Mapping::kEightQuads) {
    return 64 * half + 4 * (t / 16);
  } else {
    const int warp = t / 32, lane = t % 32;
    return 64 * half + 16 * (warp / 2) + 4 * ((lane & 1) + 2 * ((lane >> 4) & 1));
  }
}

template <Mapping kMapping>
__device__ int owned_col(int t, int half) {
  if constexpr (kMapping == Mapping::kEightQuads) {
    return 64 * half + 4 * (t % 16);
  } else {
    const int warp = t / 32, lane = t % 32;
    return 64 * half + 32 * (warp % 2) + 4 * ((lane >> 1) & 7);
  }
}

// The contract's loads and tiles (tiled_gemm.cuh, exercise 2c), as_offset for A's transposed
// tile; the mapping and the loop are the template's.
template <Mapping kMapping, Loop kLoop>
__global__ void __launch_bounds__(kThreads, 2)
    variant_kernel(const float* A, const float* B, float* C, int N, int K) {
  constexpr int kBuffers = kLoop == Loop::kSingleBuffer ? 1 : 2;
  __shared__ __align__(16) float As[kBuffers][kAsFloats];
  __shared__ __align__(16) float Bs[kBuffers][kBlockK][kBlockN];
  const int t = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * kBlockM;
  const int n0 = static_cast<int>(blockIdx.x) * kBlockN;
  const float* a_src = A + static_cast<long long>(m0 + t / 2) * K + 4 * (t % 2);
  const float* b_src = B + static_cast<long long>(t / 32) * N + n0 + 4 * (t % 32);
  const long long b_step = static_cast<long long>(kBlockK) * N;
  float4 a_next, b_next;
  const auto fetch = [&](int step) {
    a_next = *reinterpret_cast<const float4*>(a_src + kBlockK * step);
    b_next = *reinterpret_cast<const float4*>(b_src + b_step * step);
  };
  const int a_k = 4 * (t % 2), a_m = t / 2;
  const auto store = [&](int buffer) {
    As[buffer][as_offset(a_k + 0, a_m)] = a_next.x;
    As[buffer][as_offset(a_k + 1, a_m)] = a_next.y;
    As[buffer][as_offset(a_k + 2, a_m)] = a_next.z;
    As[buffer][as_offset(a_k + 3, a_m)] = a_next.w;
    *reinterpret_cast<float4*>(&Bs[buffer][t / 32][4 * (t % 32)]) = b_next;
  };
  const int row[2] = {owned_row<kMapping>(t, 0), owned_row<kMapping>(t, 1)};
  const int col[2] = {owned_col<kMapping>(t, 0), owned_col<kMapping>(t, 1)};
  float acc[8][8] = {};
  const auto compute = [&](int buffer) {
#pragma unroll
    for (int k = 0; k < kBlockK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[buffer][as_offset(k, row[0])]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[buffer][as_offset(k, row[1])]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buffer][k][col[0]]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buffer][k][col[1]]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  };
  const int steps = K / kBlockK;
  if constexpr (kLoop == Loop::kSingleBuffer) {
    for (int s = 0; s < steps; ++s) {
      fetch(s);
      store(0);
      __syncthreads();  // the tiles are in place
      compute(0);
      __syncthreads();  // nobody reads them any more
    }
  } else if constexpr (kLoop == Loop::kModTwo) {
    fetch(0);
    store(0);
    __syncthreads();
    for (int s = 0; s < steps; ++s) {
      if (s + 1 < steps) fetch(s + 1);
      compute(s % 2);
      if (s + 1 < steps) store((s + 1) % 2);
      __syncthreads();
    }
  } else {
    const auto step = [&](int s, int buffer) {
      fetch(s + 1);
      compute(buffer);
      store(1 - buffer);
      __syncthreads();
    };
    fetch(0);
    store(0);
    __syncthreads();
    int s = 0;
    for (; s + 2 < steps; s += 2) {
      step(s, 0);
      step(s + 1, 1);
    }
    if (s + 1 < steps) {
      step(s, 0);
      compute(1);
    } else {
      compute(0);
    }
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long r = m0 + row[i / 4] + i % 4;
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      *reinterpret_cast<float4*>(C + r * N + n0 + col[g]) =
          make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
    }
  }
}

}  // namespace

void launch_variant(Mapping mapping, Loop loop, const float* A, const float* B, float* C, int M,
                    int N, int K) {
  const dim3 grid(N / kBlockN, M / kBlockM);
  if (mapping == Mapping::kEightQuads && loop == Loop::kSingleBuffer) {
    variant_kernel<Mapping::kEightQuads, Loop::kSingleBuffer><<<grid, kThreads>>>(A, B, C, N, K);
  } else if (mapping == Mapping::kEightQuads && loop == Loop::kModTwo) {
    variant_kernel<Mapping::kEightQuads, Loop::kModTwo><<<grid, kThreads>>>(A, B, C, N, K);
  } else if (mapping == Mapping::kLanePairs && loop == Loop::kModTwo) {
    variant_kernel<Mapping::kLanePairs, Loop::kModTwo><<<grid, kThreads>>>(A, B, C, N, K);
  } else if (mapping == Mapping::kEightQuads && loop == Loop::kUnrolled) {
    variant_kernel<Mapping::kEightQuads, Loop::kUnrolled><<<grid, kThreads>>>(A, B, C, N, K);
  } else {
    // Lane pairs with the unrolled loop is the reference itself (launch_yours).
    throw std::invalid_argument("ch09 reference probes: this variant is not built");
  }
}

}  // namespace ch09::reference_probes
