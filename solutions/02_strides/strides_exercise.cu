// Chapter 02, reference solution. The contracts are in strides.cuh.
#include "chapters/02_strides/strides.cuh"

namespace ch02 {

int predicted_wavefronts(int stride, int element_bytes) {
  // Count in 4-byte words. A byte stride below 4 keeps the 32 lanes inside 32 consecutive
  // words (several lanes per word): one wavefront, like stride 0's broadcast.
  const int byte_stride = stride * element_bytes;
  if (byte_stride < 4) return 1;
  // Otherwise the word stride is byte_stride / 4. Lanes t and u share a bank when
  // word_stride * (t - u) is a multiple of 32, i.e. every 32 / gcd(word_stride, 32) lanes:
  // gcd(word_stride, 32) distinct words per bank.
  int a = byte_stride / 4, b = 32;
  while (b != 0) {
    const int r = a % b;
    a = b;
    b = r;
  }
  return a;
}

__global__ void stride_probe_kernel(int stride, int iterations, long long* cycles, unsigned* sink) {
  __shared__ unsigned words[kProbeWords];
  for (int w = static_cast<int>(threadIdx.x); w < kProbeWords; w += 32) words[w] = 0;
  __syncwarp();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(words));
  unsigned index = threadIdx.x * static_cast<unsigned>(stride);
  const long long start = clock64();
  for (int k = 0; k < iterations; ++k) {
    unsigned value;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(value) : "r"(base + 4 * index) : "memory");
    index += value;  // zero: the next load waits for this one, at the same word
  }
  const long long stop = clock64();
  if (threadIdx.x == 0) *cycles = stop - start;
  sink[threadIdx.x] = index;
}

// Padding each owner's row to 33 words: value i of owner o is in bank (o + i) % 32, so a warp
// reading value i of 32 owners hits 32 banks, and a warp storing 32 values of one owner too.
__host__ __device__ int staged_index(int owner, int i) {
  return owner * (kValuesPerThread + 1) + i;
}

__host__ __device__ int staged_words() {
  return kThreads * (kValuesPerThread + 1);
}

}  // namespace ch02
