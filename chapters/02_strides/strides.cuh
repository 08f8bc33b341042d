/// @file strides.cuh
/// @brief Chapter 02 interface: strides and the gcd law.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// strides_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 02: strides and the gcd law.
namespace ch02 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

// ---------------------------------------------------------------------------------------------
// Exercise 1: the gcd law.
// ---------------------------------------------------------------------------------------------

/// Your prediction: a full warp where lane t loads element `t * stride` of a shared array of
/// `element_bytes`-byte elements (1: `unsigned char`, 2: `short`, 4: `float`), starting at
/// byte 0. How many wavefronts does the request take? Must hold for every stride >= 0 whose
/// byte stride (`stride * element_bytes`) is a multiple of 4 or below 4: those are the strides
/// the grader asks about (your variant's: every one up to 64 in a self-study workbook, 24 of
/// each size up to 384 in a class hand-out, listed in the grader's report; fresh ones up to 384
/// each run draws; official grading's up to 2^21 too). (Other byte strides do not follow one
/// law; draw them with analyze_smem_access.)
int predicted_wavefronts(int stride, int element_bytes);

// ---------------------------------------------------------------------------------------------
// Exercise 2: a microbenchmark.
// ---------------------------------------------------------------------------------------------

/// Words of shared memory the microbenchmark uses (every `t * stride` lies below this for the
/// strides the grader uses: 16 of 0 to 64, your variant's).
constexpr int kProbeWords = 2048;

/// Launched as one warp (<<<1, 32>>>). Fill a `unsigned[kProbeWords]` shared array with zeros;
/// then lane t runs a dependent chain of `iterations` loads starting at word `t * stride`
/// (`index += words[index]`, which stays put because the words are zero), timed with clock64()
/// around the chain. Lane 0 writes the elapsed cycles to `*cycles`; every lane writes its final
/// index to `sink[lane]`. The chain must be the only shared-memory loads in the kernel.
__global__ void stride_probe_kernel(int stride, int iterations, long long* cycles, unsigned* sink);

// ---------------------------------------------------------------------------------------------
// Exercise 3: fix a thread-major layout.
// ---------------------------------------------------------------------------------------------

constexpr int kThreads = 256;         ///< Threads per block of owner_sums_kernel (fixed).
constexpr int kValuesPerThread = 32;  ///< Values each thread owns.

/// The shared-memory word where a block of `threads` threads (a multiple of 32, 32 .. 352;
/// owner_sums_kernel's has kThreads), staging and summing as owner_sums_kernel does, keeps value
/// `i` (0..31) of its thread `owner` (0 .. threads - 1), with neither loop conflicting. Every
/// (owner, i) must get its own word in [0, staged_words(threads)). The local checks ask blocks
/// of up to 256 threads; official grading asks larger ones.
__host__ __device__ int staged_index(int owner, int i, int threads);

/// Words of shared memory the layout of a block of `threads` threads needs (at most 12288,
/// 48 KiB).
__host__ __device__ int staged_words(int threads);

/// The layout as shipped: thread `owner` keeps its values in one row of 32 words, so value i of
/// every thread lies in bank i (the grader's baseline).
struct ThreadMajorLayout {
  /// Word of value `i` of thread `owner`.
  __host__ __device__ static int index(int owner, int i) { return owner * kValuesPerThread + i; }
  /// Words the layout needs.
  __host__ __device__ static int words() { return kThreads * kValuesPerThread; }
};

/// Your layout: staged_index() and staged_words().
struct YourLayout {
  /// Word of value `i` of thread `owner`: staged_index().
  __host__ __device__ static int index(int owner, int i) {
    return staged_index(owner, i, kThreads);
  }
  /// Words the layout needs: staged_words().
  __host__ __device__ static int words() { return staged_words(kThreads); }
};

/// The kernel whose layout you fix (given; not an exercise). Launched with kThreads threads per
/// block and `Layout::words() * 4` bytes of dynamic shared memory, one block per kThreads
/// owners. Thread `g` (global index) owns the 32 floats `in[32 * g .. 32 * g + 31]` and writes
/// `out[g] = sum over i of (i + 1) * in[32 * g + i]`, for every `g < owners`.
#if defined(__CUDACC__)  // device code: host-only translation units see the layouts alone
template <typename Layout>
__global__ void owner_sums_kernel(const float* in, float* out, int owners) {
  extern __shared__ float staged[];
  const int first_owner = blockIdx.x * kThreads;
  const long long first_value = static_cast<long long>(first_owner) * kValuesPerThread;
  const long long total_values = static_cast<long long>(owners) * kValuesPerThread;
  // Stage: consecutive threads load consecutive floats (coalesced). Value v of the block
  // belongs to owner v / 32, position v % 32: a warp stores 32 values of ONE owner.
  for (int k = 0; k < kValuesPerThread; ++k) {
    const int v = k * kThreads + static_cast<int>(threadIdx.x);
    if (first_value + v < total_values) {
      staged[Layout::index(v / kValuesPerThread, v % kValuesPerThread)] = in[first_value + v];
    }
  }
  __syncthreads();
  // Sum: each thread reads its own 32 values: a warp reads value i of 32 owners at once.
  const int owner = first_owner + static_cast<int>(threadIdx.x);
  if (owner >= owners) return;
  float sum = 0;
  for (int i = 0; i < kValuesPerThread; ++i) {
    sum += static_cast<float>(i + 1) * staged[Layout::index(static_cast<int>(threadIdx.x), i)];
  }
  out[owner] = sum;
}
#endif

}  // namespace ch02
