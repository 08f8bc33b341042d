// Chapter 02 exercises: strides and the gcd law. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in strides.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch02
#include "chapters/02_strides/strides.cuh"

namespace ch02 {

// Exercise 1: the gcd law, for every stride >= 0 (stride 0 too) of 1-, 2- and 4-byte elements,
// where the byte stride is a multiple of 4 or below 4.
// ---- your code: exercise 1 ----
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
// ---- end of your code ----

// Exercise 2: the microbenchmark. One warp; zero the shared words, then a dependent chain of
// loads at word lane * stride, timed with clock64().
// ---- your code: exercise 2 ----
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
// ---- end of your code ----

// Exercise 3: the layout of owner_sums_kernel's shared memory (the kernel is in strides.cuh).
// As shipped it is thread-major, like ThreadMajorLayout: value i of every thread lies in bank i,
// so the sum loop is 32-way. Make both the staging stores and the sum loads conflict-free, for a
// block of any size of the contract.
// ---- your code: exercise 3 ----
// Padding each owner's row to 33 words: value i of owner o is in bank (o + i) % 32, so a warp
// reading value i of 32 owners hits 32 banks, and a warp storing 32 values of one owner too,
// whatever the block's size (33 words a thread: 352 threads fill 48 KiB but for 672 words).
__host__ __device__ int staged_index(int owner, int i, int threads) {
  (void)threads;
  return owner * (kValuesPerThread + 1) + i;
}

__host__ __device__ int staged_words(int threads) {
  return threads * (kValuesPerThread + 1);
}
// ---- end of your code ----

}  // namespace ch02
