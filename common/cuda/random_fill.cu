#include "common/cuda/random_fill.hpp"

#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {

__global__ void random_floats_kernel(float* x, long long n, unsigned long long seed) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long z = seed + 0x9E3779B97F4A7C15ull * static_cast<unsigned long long>(i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  x[i] = static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace

void random_floats(float* x, long long n, unsigned long long seed) {
  if (n <= 0) return;
  random_floats_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n, seed);
  GPU_CHECK_KERNEL("random_floats_kernel (a speed check's input)");
}

}  // namespace gpu
