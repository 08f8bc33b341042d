#include "cuda_check.hpp"
#include "test_kernels.hpp"

namespace test_kernels {

namespace {
__global__ void iota_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

__global__ void null_write_kernel(int* out) {
  out[threadIdx.x] = 1;
}
}  // namespace

void launch_with_bad_configuration() {
  iota_kernel<<<1, 4096>>>(nullptr, 0);  // more threads than a block may have
  GPU_CHECK_KERNEL("iota_kernel");
}

void launch_crashing_kernel() {
  null_write_kernel<<<1, 32>>>(nullptr);
  GPU_CHECK_KERNEL("null_write_kernel");
}

void launch_iota(int* out, int n) {
  iota_kernel<<<(n + 255) / 256, 256>>>(out, n);
  GPU_CHECK_KERNEL("iota_kernel");
}

}  // namespace test_kernels
