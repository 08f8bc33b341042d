#include "common/counters/smem_counters_probe.hpp"
#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {
__global__ void counter_probe_kernel(unsigned* out) {
  __shared__ unsigned words[32];
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(&words[threadIdx.x]));
  unsigned value = threadIdx.x;
  asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(address), "r"(value) : "memory");
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(value) : "r"(address) : "memory");
  out[threadIdx.x] = value;
}
}  // namespace

void launch_counter_probe() {
  static unsigned* out = nullptr;
  if (out == nullptr) GPU_CHECK(cudaMalloc(&out, 32 * sizeof(unsigned)));
  counter_probe_kernel<<<1, 32>>>(out);
  GPU_CHECK(cudaGetLastError());
}

}  // namespace gpu
