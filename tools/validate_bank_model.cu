// validate_bank_model: runs every case of a case file on the GPU, one warp and one shared-memory
// instruction each, reads the hardware counters, and writes the measured file in the same
// format. Then it compares the bank model with what was measured.
//
//   validate_bank_model OUTPUT.tsv CASES.tsv [CASES.tsv ...]
//
// Exit status: 0 every case measured and the model agrees; 1 the model disagrees somewhere (the
// measured file is written all the same); 2 bad input; 77 no usable GPU or no counters (the
// reason and its fix are printed, and nothing is written).
#include <cuda_runtime.h>

#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "bank_model.hpp"
#include "case_file.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gpu_info.hpp"
#include "smem_counters.hpp"

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

struct Measured {
  int wavefronts = 0;
  int conflicts = 0;
};

// Runs one case under the profiler; throws std::runtime_error naming the case on any surprise.
Measured measure(const smem::SmemCase& c, int max_shared_bytes) {
  const smem::WarpRequest& r = c.request;
  std::vector<long long> addresses(32);
  long long end = 16;
  for (int t = 0; t < 32; ++t) {
    addresses[t] = r.active(t) ? r.address[t] : -1;
    end = std::max(end, addresses[t] + r.width_bytes);
  }
  const int shared_bytes = static_cast<int>((end + 127) / 128 * 128);
  if (shared_bytes > max_shared_bytes) {
    throw std::runtime_error("case " + c.name + " needs " + std::to_string(shared_bytes) +
                             " bytes of shared memory; this GPU gives a block at most " +
                             std::to_string(max_shared_bytes));
  }
  const Kernel kernel = kernel_for(r);
  GPU_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  gpu::DeviceBuffer<long long> device_addresses(addresses);
  gpu::DeviceBuffer<unsigned> sink(32);
  const gpu::SmemCounters counters = gpu::measure_smem_counters([&] {
    kernel<<<1, 32, shared_bytes>>>(device_addresses.get(), sink.get());
    GPU_CHECK(cudaGetLastError());
  });
  const bool ldmatrix = r.op == smem::Op::kLdmatrix;
  const bool store = r.op == smem::Op::kStore;
  const double instructions = ldmatrix ? counters.ldsm_instructions
                              : store  ? counters.store_instructions
                                       : counters.load_instructions;
  const double wavefronts = store ? counters.store_wavefronts : counters.load_wavefronts;
  const double conflicts = store ? counters.store_conflicts : counters.load_conflicts;
  const double others = counters.load_instructions + counters.store_instructions +
                        counters.ldsm_instructions - instructions;
  if (instructions != 1 || others != 0) {
    throw std::runtime_error("case " + c.name + ": the kernel executed " +
                             std::to_string(instructions) +
                             " instructions of the kind measured and " + std::to_string(others) +
                             " other shared-memory instructions; "
                             "expected exactly one");
  }
  if (wavefronts != std::floor(wavefronts) || conflicts != std::floor(conflicts)) {
    throw std::runtime_error("case " + c.name + ": counters are not whole numbers");
  }
  return {static_cast<int>(wavefronts), static_cast<int>(conflicts)};
}

int run(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: validate_bank_model OUTPUT.tsv CASES.tsv [CASES.tsv ...]\n";
    return 2;
  }
  std::vector<smem::SmemCase> cases;
  for (int i = 2; i < argc; ++i) {
    try {
      const std::vector<smem::SmemCase> more = smem::read_case_file(argv[i]);
      cases.insert(cases.end(), more.begin(), more.end());
    } catch (const smem::CaseFileError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  const gpu::GpuInfo info = gpu::detect_gpu();
  if (!info.usable) {
    std::cout << "SKIP: no GPU to validate the bank model on: " << info.reason << "\n";
    return 77;
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) {
    std::cout << "SKIP: cannot read shared-memory counters: " << counters.reason << "\n";
    return 77;
  }
  int max_shared = 0;
  GPU_CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));

  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::ofstream out(argv[1]);
  out << "# Measured by validate_bank_model on " << info.describe() << ", " << date
      << ": wavefronts and Nsight-Compute-style bank conflicts per request, from the hardware\n"
      << "# counters (CUPTI Range Profiler) of one warp executing one instruction.\n"
      << "# name\twidth_bytes\top\twavefronts\tncu_bank_conflicts\taddresses (lane 0 first; "
         "-1 = inactive)\n";
  int disagreements = 0;
  std::cout << std::left << std::setw(28) << "case" << std::right << std::setw(10) << "measured"
            << std::setw(7) << "model" << std::setw(11) << "conflicts" << std::setw(7) << "model"
            << "\n";
  for (smem::SmemCase c : cases) {
    const Measured m = measure(c, max_shared);
    const smem::Analysis a = smem::analyze(c.request);
    c.wavefronts = m.wavefronts;
    c.conflicts = m.conflicts;
    out << smem::format_case(c) << "\n";
    const bool agree = m.wavefronts == a.wavefronts && m.conflicts == a.excess;
    disagreements += agree ? 0 : 1;
    std::cout << std::left << std::setw(28) << c.name << std::right << std::setw(10) << m.wavefronts
              << std::setw(7) << a.wavefronts << std::setw(11) << m.conflicts << std::setw(7)
              << a.excess << (agree ? "" : "   MODEL DISAGREES") << "\n";
  }
  out.close();
  if (!out) {
    std::cerr << "error: cannot write " << argv[1] << "\n";
    return 2;
  }
  std::cout << cases.size() << " cases measured on " << info.describe() << ", written to "
            << argv[1] << "; the model disagrees on " << disagreements << "\n";
  return disagreements == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gpu::CountersUnavailable& e) {
    std::cout << "SKIP: cannot read shared-memory counters: " << e.what() << "\n";
    return 77;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
