#include "common/cuda/gpu_info.hpp"

#include <cuda_runtime.h>

#include <sstream>

namespace gpu {

namespace {
// An empty kernel: asking for its attributes tells whether this binary has code for the GPU.
__global__ void probe_kernel() {}

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

}  // namespace gpu
