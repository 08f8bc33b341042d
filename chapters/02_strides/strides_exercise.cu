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
  (void)stride;
  (void)element_bytes;
  return kNotImplemented;  // TODO
}
// ---- end of your code ----

// Exercise 2: the microbenchmark. One warp; zero the shared words, then a dependent chain of
// loads at word lane * stride, timed with clock64().
// ---- your code: exercise 2 ----
__global__ void stride_probe_kernel(int stride, int iterations, long long* cycles, unsigned* sink) {
  (void)stride;
  (void)iterations;
  (void)cycles;
  (void)sink;
  // TODO
}
// ---- end of your code ----

// Exercise 3: the layout of owner_sums_kernel's shared memory (the kernel is in strides.cuh).
// As shipped it is thread-major, like ThreadMajorLayout: value i of every thread lies in bank i,
// so the sum loop is 32-way. Make both the staging stores and the sum loads conflict-free, for a
// block of any size of the contract.
// ---- your code: exercise 3 ----
__host__ __device__ int staged_index(int owner, int i, int threads) {
  (void)threads;
  return owner * kValuesPerThread + i;
}

__host__ __device__ int staged_words(int threads) {
  return threads * kValuesPerThread;
}
// ---- end of your code ----

}  // namespace ch02
