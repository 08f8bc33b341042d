// Chapter 01 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/01_bank_indexing/device_probes.hpp"

#include "chapters/01_bank_indexing/bank_indexing.cuh"

#include <algorithm>

#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/event_timer.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch01::probes {

namespace probe_code {

__global__ void bank_of_kernel(const unsigned* addresses, int* banks, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) banks[i] = bank_of(addresses[i]);
}

__global__ void pattern_address_kernel(PatternCase c, unsigned* addresses) {
  addresses[threadIdx.x] = pattern_address(c, static_cast<int>(threadIdx.x));
}

__global__ void warp_wavefronts_kernel(const unsigned* addresses, int* wavefronts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  wavefronts[i] = warp_wavefronts(addresses[i]);
}

// One shared load of W bytes at a shared-window address; the value is zero-extended.
template <int W>
__device__ unsigned load_shared(unsigned address) {
  unsigned value;
  if constexpr (W == 1) {
    asm volatile("ld.shared.u8 %0, [%1];" : "=r"(value) : "r"(address) : "memory");
  } else if constexpr (W == 2) {
    asm volatile("ld.shared.u16 %0, [%1];" : "=r"(value) : "r"(address) : "memory");
  } else {
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(value) : "r"(address) : "memory");
  }
  return value;
}

// A dependent chain: shared memory holds zeros, so `address += load(address)` stays on the
// lane's address while every load waits for the one before it.
template <int W>
__device__ unsigned load_chain(unsigned address, int iterations) {
#pragma unroll 8
  for (int i = 0; i < iterations; ++i) address += load_shared<W>(address);
  return address;
}

__global__ void pattern_latency_kernel(PatternCase c, int iterations, long long* cycles,
                                       unsigned* sink) {
  __shared__ alignas(16) unsigned buffer[kProbeSharedBytes / 4];
  for (unsigned i = threadIdx.x; i < kProbeSharedBytes / 4; i += blockDim.x) buffer[i] = 0;
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(buffer));
  unsigned address = base + pattern_address(c, lane_id());
  const int width = pattern_width(c.pattern);
  auto chain = [&](int n) {
    return width == 1   ? load_chain<1>(address, n)
           : width == 2 ? load_chain<2>(address, n)
                        : load_chain<4>(address, n);
  };
  address = chain(32);  // warm-up
  __syncwarp();
  const long long start = clock64();
  address = chain(iterations);
  const long long stop = clock64();
  if (lane_id() == 0) *cycles = stop - start;
  sink[threadIdx.x] = address;
}

// One load of the pattern's width per lane, and no other shared-memory instruction.
__global__ void pattern_single_load_kernel(PatternCase c, unsigned* sink) {
  __shared__ alignas(16) unsigned buffer[kProbeSharedBytes / 4];
  const unsigned address =
      static_cast<unsigned>(__cvta_generic_to_shared(buffer)) + pattern_address(c, lane_id());
  const int width = pattern_width(c.pattern);
  sink[threadIdx.x] = width == 1   ? load_shared<1>(address)
                      : width == 2 ? load_shared<2>(address)
                                   : load_shared<4>(address);
}

}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

std::vector<int> device_bank_of(const std::vector<unsigned>& addresses) {
  gpu::DeviceBuffer<unsigned> in(addresses);
  gpu::DeviceBuffer<int> out(addresses.size());
  out.fill_bytes(0xff);
  const int n = static_cast<int>(addresses.size());
  gpu::launch(bank_of_kernel, (n + 255) / 256, 256, 0, in.get(), out.get(), n);
  GPU_CHECK_KERNEL("bank_of_kernel (calls your bank_of)");
  return out.download();
}

std::vector<unsigned> device_pattern_addresses(const PatternCase& c) {
  gpu::DeviceBuffer<unsigned> out(32);
  out.fill_bytes(0xee);
  gpu::launch(pattern_address_kernel, 1, 32, 0, c, out.get());
  GPU_CHECK_KERNEL("pattern_address_kernel (calls your pattern_address)");
  return out.download();
}

std::vector<int> device_warp_wavefronts(const std::vector<unsigned>& addresses) {
  gpu::DeviceBuffer<unsigned> in(addresses);
  gpu::DeviceBuffer<int> out(addresses.size());
  out.fill_bytes(0xff);
  const int warps = static_cast<int>(addresses.size() / 32);
  gpu::launch(warp_wavefronts_kernel, warps, 32, 0, in.get(), out.get());
  GPU_CHECK_KERNEL("warp_wavefronts_kernel (calls your warp_wavefronts)");
  return out.download();
}

double pattern_load_cycles(const PatternCase& c, int iterations, int launches) {
  gpu::DeviceBuffer<long long> cycles(1);
  gpu::DeviceBuffer<unsigned> sink(32);
  std::vector<double> per_load;
  for (int i = 0; i < launches; ++i) {
    gpu::launch(pattern_latency_kernel, 1, 32, 0, c, iterations, cycles.get(), sink.get());
    GPU_CHECK_KERNEL("pattern_latency_kernel (loads at your pattern_address)");
    per_load.push_back(static_cast<double>(cycles.download()[0]) / iterations);
  }
  return gpu::median(per_load);
}

std::vector<double> pattern_wavefronts_counted(const std::vector<PatternCase>& cases) {
  if (cases.empty()) return {};
  gpu::DeviceBuffer<unsigned> sink(32);
  const std::vector<gpu::SmemCounters> counted =
      gpu::measure_smem_counters_each(static_cast<int>(cases.size()), [&](int i) {
        gpu::launch(pattern_single_load_kernel, 1, 32, 0, cases[static_cast<std::size_t>(i)],
                    sink.get());
        GPU_CHECK(cudaGetLastError());
      });
  std::vector<double> wavefronts;
  for (const gpu::SmemCounters& c : counted) {
    if (c.load_instructions != 1) {
      throw std::runtime_error("the counter probe executed " + std::to_string(c.load_instructions) +
                               " shared loads; expected 1");
    }
    wavefronts.push_back(c.load_wavefronts);
  }
  return wavefronts;
}

}  // namespace ch01::probes
