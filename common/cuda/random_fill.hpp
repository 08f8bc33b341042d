/// @file random_fill.hpp
/// @brief Random floats written on the GPU, for the large inputs that checks time or multiply.
#pragma once

#include <cuda_runtime.h>

namespace gpu {

/// Element i of the pseudo-random floats for `seed`: uniform in [-1, 1), the top 24 bits of
/// splitmix64 of (seed, i); the same on the host and the GPU, so a host check can recompute
/// any element of a matrix the GPU filled.
__host__ __device__ inline float random_float(unsigned long long seed, unsigned long long i) {
  unsigned long long z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * 0x1p-23f - 1.0f;
}

/// Fills device memory `x[0..n)` with random_float(seed, i). Drawn on the host with
/// std::mt19937, the 2^26 floats of a speed check's input took 0.5 s of its check on 2 cores;
/// here a few milliseconds. Throws (GPU_CHECK_KERNEL) if the fill fails.
void random_floats(float* x, long long n, unsigned long long seed);

}  // namespace gpu
