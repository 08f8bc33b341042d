#include "common/cuda/random_fill.hpp"

#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {

__global__ void random_floats_kernel(float* x, long long n, unsigned long long seed) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) x[i] = random_float(seed, static_cast<unsigned long long>(i));
}

}  // namespace

void random_floats(float* x, long long n, unsigned long long seed) {
  if (n <= 0) return;
  random_floats_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n, seed);
  GPU_CHECK_KERNEL("random_floats_kernel (a speed check's input)");
}

}  // namespace gpu
