#include "common/cuda/cuda_check.hpp"
#include "common/cuda/tests/test_kernels.hpp"

namespace test_kernels {

namespace {
__global__ void iota_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

// One warp: a row of tile stored (1 wavefront), a column loaded (32). Its lines say so to the
// bank model, for the line-by-line view's tests (common/counters/source_counters.hpp).
__global__ void column_read_kernel(float* out) {
  __shared__ float tile[32][32];
  const unsigned lane = threadIdx.x;
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0][lane]));
  const unsigned column = static_cast<unsigned>(__cvta_generic_to_shared(&tile[lane][5]));
  float value = static_cast<float>(lane);
  // bank model: --store 't*4'
  asm volatile("st.volatile.shared.f32 [%0], %1;" ::"r"(row), "f"(value) : "memory");
  // bank model: 't*128 + 20'
  asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(value) : "r"(column) : "memory");
  out[lane] = value;
}

// One warp: a coalesced read of 32 floats, and a store of each 128 bytes from the last.
__global__ void strided_copy_kernel(const float* in, float* out) {
  out[32 * threadIdx.x] = in[threadIdx.x];
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

void launch_column_read() {
  static float* out = nullptr;
  if (out == nullptr) GPU_CHECK(cudaMalloc(&out, 32 * sizeof(float)));
  column_read_kernel<<<1, 32>>>(out);
  GPU_CHECK(cudaGetLastError());
}

void launch_strided_copy() {
  static float* memory = nullptr;
  if (memory == nullptr) GPU_CHECK(cudaMalloc(&memory, 33 * 32 * sizeof(float)));
  strided_copy_kernel<<<1, 32>>>(memory, memory + 32);
  GPU_CHECK(cudaGetLastError());
}

void launch_iota(int* out, int n) {
  iota_kernel<<<(n + 255) / 256, 256>>>(out, n);
  GPU_CHECK_KERNEL("iota_kernel");
}

}  // namespace test_kernels
