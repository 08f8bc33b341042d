#include "common/cuda/gpu_info.hpp"

#include <cuda_runtime.h>

#include <sstream>

namespace gpu {

namespace {
// An empty kernel: asking for its attributes tells whether this binary has code for the GPU.
__global__ void probe_kernel() {}

// Spins for `nanoseconds` of the GPU's global timer; the first thread of block 0 writes the SM
// clocks and nanoseconds it counted.
__global__ void clock_kernel(long long nanoseconds, long long* counted) {
  unsigned long long start_ns = 0, now_ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start_ns));
  const long long start_clock = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now_ns));
  } while (static_cast<long long>(now_ns - start_ns) < nanoseconds);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counted[0] = clock64() - start_clock;
    counted[1] = static_cast<long long>(now_ns - start_ns);
  }
}

std::string describe_error(cudaError_t code) {
  return std::string(cudaGetErrorString(code)) + " (" + cudaGetErrorName(code) + ")";
}
}  // namespace

std::string GpuInfo::describe() const {
  std::ostringstream out;
  out << name << " (sm_" << major << minor << ", " << multiprocessors << " SMs, driver "
      << driver_version / 1000 << "." << (driver_version % 1000) / 10 << ")";
  return out.str();
}

GpuInfo detect_gpu(int min_major, int min_minor) {
  GpuInfo info;
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code == cudaErrorInsufficientDriver) {
    info.reason = "no usable NVIDIA driver on this machine (" + describe_error(code) +
                  "); install the driver or run the GPU checks on a machine with a GPU";
    return info;
  }
  if (code != cudaSuccess || count == 0) {
    info.reason = "no CUDA GPU found: " +
                  (code != cudaSuccess ? describe_error(code) : std::string("0 devices"));
    return info;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, info.device); e != cudaSuccess) {
    info.reason = "cannot read the properties of GPU 0: " + describe_error(e);
    return info;
  }
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  cudaDriverGetVersion(&info.driver_version);
  cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, info.device);
  cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, info.device);
  cudaDeviceGetAttribute(&info.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, info.device);
  if (prop.major < min_major || (prop.major == min_major && prop.minor < min_minor)) {
    std::ostringstream why;
    why << info.name << " has compute capability " << prop.major << "." << prop.minor
        << "; these checks need " << min_major << "." << min_minor << " or newer";
    info.reason = why.str();
    return info;
  }
  cudaFuncAttributes attributes{};
  if (const cudaError_t e = cudaFuncGetAttributes(&attributes, probe_kernel); e != cudaSuccess) {
    std::ostringstream why;
    why << "this build has no code that runs on " << info.name << " (sm_" << prop.major
        << prop.minor << "): " << describe_error(e)
        << "; reconfigure with -Dgpu_targets=" << prop.major << prop.minor;
    info.reason = why.str();
    return info;
  }
  info.usable = true;
  return info;
}

int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7 || (major == 8 && minor == 0)) return 64;
  return major >= 8 ? 128 : 0;
}

int fp16_tensor_flops_per_sm_clock(int major, int minor) {
  if (major == 7 && minor == 0) return 1024;
  if (major == 8 && minor == 0) return 2048;
  if (major == 9 && minor == 0) return 4096;
  return 0;
}

Ceilings ceilings(const GpuInfo& gpu, double sm_clock_hz) {
  Ceilings c;
  c.clock_measured = sm_clock_hz > 0;
  c.sm_clock_hz = c.clock_measured ? sm_clock_hz : gpu.sm_clock_khz * 1e3;
  const double sm_clocks = gpu.multiprocessors * c.sm_clock_hz;
  c.memory_bytes_per_second = 2.0 * gpu.memory_clock_khz * 1e3 * gpu.memory_bus_bits / 8;
  c.shared_bytes_per_second = sm_clocks * 32 * 4;
  c.fp32_flops = sm_clocks * 2 * fp32_lanes_per_sm(gpu.major, gpu.minor);
  c.fp16_tensor_flops = sm_clocks * fp16_tensor_flops_per_sm_clock(gpu.major, gpu.minor);
  return c;
}

double measure_sm_clock_hz(double milliseconds) {
  int device = 0, sms = 0;
  long long* counted = nullptr;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaMalloc(&counted, 2 * sizeof(long long)) != cudaSuccess) {
    return 0;
  }
  long long host[2] = {0, 0};
  clock_kernel<<<sms, 32>>>(static_cast<long long>(milliseconds * 1e6), counted);
  const bool ran = cudaGetLastError() == cudaSuccess &&
                   cudaMemcpy(host, counted, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(counted);
  return ran && host[1] > 0 ? host[0] * 1e9 / host[1] : 0;
}

}  // namespace gpu
