#include "common/counters/smem_access_probe.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"

namespace gpu {

namespace {

// One shared-memory instruction of W bytes per active lane (address >= 0), nothing else in
// shared memory. Loaded values go to `sink` so that the loads are kept.
template <int W, bool kStore>
__global__ void access_kernel(const long long* addresses, unsigned* sink) {
  extern __shared__ __align__(16) unsigned char shared[];
  const long long offset = addresses[threadIdx.x];
  if (offset < 0) return;
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(shared + offset));
  unsigned v0 = threadIdx.x, v1 = 1, v2 = 2, v3 = 3;
  if constexpr (kStore) {
    if constexpr (W == 1) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "r"(v0) : "memory");
    if constexpr (W == 2) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "r"(v0) : "memory");
    if constexpr (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v0) : "memory");
    if constexpr (W == 8) {
      asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v0), "r"(v1) : "memory");
    }
    if constexpr (W == 16) {
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v0), "r"(v1), "r"(v2),
                   "r"(v3)
                   : "memory");
    }
  } else {
    if constexpr (W == 1) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v0) : "r"(a) : "memory");
    if constexpr (W == 2) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v0) : "r"(a) : "memory");
    if constexpr (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a) : "memory");
    if constexpr (W == 8) {
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a) : "memory");
    }
    if constexpr (W == 16) {
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                   : "r"(a)
                   : "memory");
    }
    sink[threadIdx.x] = v0 + v1 + v2 + v3;
  }
}

// One ldmatrix of M 8x8 matrices: every lane takes part; lanes past 8 * M give an ignored row.
template <int M>
__global__ void ldmatrix_kernel(const long long* addresses, unsigned* sink) {
  extern __shared__ __align__(16) unsigned char shared[];
  const long long offset = addresses[threadIdx.x] < 0 ? 0 : addresses[threadIdx.x];
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(shared + offset));
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if constexpr (M == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r0)
                 : "r"(a)
                 : "memory");
  } else if constexpr (M == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r0), "=r"(r1)
                 : "r"(a)
                 : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a)
                 : "memory");
  }
  sink[threadIdx.x] = r0 + r1 + r2 + r3;
}

// One 16-byte cp.async.cg per active lane, into shared `addresses[lane]` from global
// `source + from[lane]`; the kernel waits for it, so nothing is in flight at exit.
__global__ void async_copy_kernel(const long long* addresses, const long long* from,
                                  const unsigned char* source) {
  extern __shared__ __align__(16) unsigned char shared[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const long long offset = addresses[threadIdx.x];
  if (offset >= 0) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(shared + offset));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a),
                 "l"(source + from[threadIdx.x])
                 : "memory");
  }
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#else
  (void)addresses, (void)from, (void)source, (void)shared;
  __trap();
#endif
}

// Bytes between two global rows of a cp.async request: every row in a 128-byte line of its own.
constexpr long long kGlobalRowPitch = 8192;

using Kernel = void (*)(const long long*, unsigned*);

Kernel kernel_for(const smem::WarpRequest& r) {
  if (r.op == smem::Op::kLdmatrix) {
    return r.matrices == 1   ? ldmatrix_kernel<1>
           : r.matrices == 2 ? ldmatrix_kernel<2>
                             : ldmatrix_kernel<4>;
  }
  const bool store = r.op == smem::Op::kStore;
  switch (r.width_bytes) {
    case 1: return store ? access_kernel<1, true> : access_kernel<1, false>;
    case 2: return store ? access_kernel<2, true> : access_kernel<2, false>;
    case 4: return store ? access_kernel<4, true> : access_kernel<4, false>;
    case 8: return store ? access_kernel<8, true> : access_kernel<8, false>;
    default: return store ? access_kernel<16, true> : access_kernel<16, false>;
  }
}

}  // namespace

std::vector<MeasuredAccess> measure_warp_requests(const std::vector<smem::WarpRequest>& requests,
                                                  int max_shared_bytes) {
  const std::size_t n = requests.size();
  if (n == 0) return {};
  std::vector<long long> addresses(32 * n);
  std::vector<int> shared_bytes(n);
  for (std::size_t i = 0; i < n; ++i) {
    const smem::WarpRequest& r = requests[i];
    long long end = 16;
    for (int t = 0; t < 32; ++t) {
      const long long a = r.active(t) ? r.address[t] : -1;
      addresses[32 * i + static_cast<std::size_t>(t)] = a;
      end = std::max(end, a + r.width_bytes);
    }
    shared_bytes[i] = static_cast<int>((end + 127) / 128 * 128);
    if (shared_bytes[i] > max_shared_bytes) {
      throw std::runtime_error(r.describe() + " needs " + std::to_string(shared_bytes[i]) +
                               " bytes of shared memory; this GPU gives a block at most " +
                               std::to_string(max_shared_bytes));
    }
  }
  // Where each lane of a cp.async request reads from (see WarpRequest::global_row_bytes).
  std::vector<long long> from(32 * n, 0);
  bool any_async_copy = false;
  for (std::size_t i = 0; i < n; ++i) {
    const smem::WarpRequest& r = requests[i];
    if (r.op != smem::Op::kAsyncCopy) continue;
    any_async_copy = true;
    for (int t = 0; t < 32; ++t) {
      from[32 * i + static_cast<std::size_t>(t)] =
          r.global_row_bytes >= 512 ? 16LL * t
                                    : r.global_line(t) * kGlobalRowPitch + 16LL * r.global_chunk(t);
    }
  }
  gpu::DeviceBuffer<long long> device_addresses(addresses);
  gpu::DeviceBuffer<long long> device_from(from);
  gpu::DeviceBuffer<unsigned char> source(any_async_copy ? 32 * kGlobalRowPitch : 16);
  gpu::DeviceBuffer<unsigned> sink(32 * n);
  const std::vector<gpu::SmemCounters> counted =
      gpu::measure_smem_counters_each(static_cast<int>(n), [&](int i) {
        const std::size_t k = static_cast<std::size_t>(i);
        if (requests[k].op == smem::Op::kAsyncCopy) {
          GPU_CHECK(cudaFuncSetAttribute(
              async_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes[k]));
          async_copy_kernel<<<1, 32, shared_bytes[k]>>>(device_addresses.get() + 32 * k,
                                                        device_from.get() + 32 * k, source.get());
          GPU_CHECK(cudaGetLastError());
          return;
        }
        const Kernel kernel = kernel_for(requests[k]);
        GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       shared_bytes[k]));
        kernel<<<1, 32, shared_bytes[k]>>>(device_addresses.get() + 32 * k, sink.get() + 32 * k);
        GPU_CHECK(cudaGetLastError());
      });

  std::vector<MeasuredAccess> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const smem::WarpRequest& r = requests[i];
    const gpu::SmemCounters& counters = counted[i];
    const std::string name = r.describe();
    const bool ldmatrix = r.op == smem::Op::kLdmatrix;
    const bool store = r.op == smem::Op::kStore;
    if (r.op == smem::Op::kAsyncCopy) {
      // Its writes are counted apart: instructions, wavefronts, and a conflict counter that
      // reads 0 on the H200 whatever the layout.
      const double copies = counters.async_copy_instructions;
      const double others =
          counters.load_instructions + counters.store_instructions + counters.ldsm_instructions;
      if (counters.async_copy_wavefronts < 0) {
        throw CountersUnavailable(name + ": this profiler does not count cp.async's wavefronts");
      }
      if (copies != 1 || others != 0) {
        throw std::runtime_error(name + ": the kernel executed " + std::to_string(copies) +
                                 " cp.async and " + std::to_string(others) +
                                 " other shared-memory instructions; expected exactly one");
      }
      out.push_back(MeasuredAccess{static_cast<int>(counters.async_copy_wavefronts),
                                   static_cast<int>(counters.async_copy_conflicts)});
      continue;
    }
    const double instructions = ldmatrix ? counters.ldsm_instructions
                                : store  ? counters.store_instructions
                                         : counters.load_instructions;
    const double wavefronts = store ? counters.store_wavefronts : counters.load_wavefronts;
    const double conflicts = store ? counters.store_conflicts : counters.load_conflicts;
    const double others = counters.load_instructions + counters.store_instructions +
                          counters.ldsm_instructions - instructions;
    if (instructions != 1 || others != 0) {
      throw std::runtime_error(name + ": the kernel executed " + std::to_string(instructions) +
                               " instructions of the kind measured and " + std::to_string(others) +
                               " other shared-memory instructions; "
                               "expected exactly one");
    }
    if (wavefronts != std::floor(wavefronts) || conflicts != std::floor(conflicts)) {
      throw std::runtime_error(name + ": counters are not whole numbers");
    }
    out.push_back(MeasuredAccess{static_cast<int>(wavefronts), static_cast<int>(conflicts)});
  }
  return out;
}

MeasuredAccess measure_warp_request(const smem::WarpRequest& request, int max_shared_bytes) {
  return measure_warp_requests({request}, max_shared_bytes).front();
}

namespace {
// Known counts: see launch_counter_probe().
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
