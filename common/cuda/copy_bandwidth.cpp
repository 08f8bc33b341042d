#include "common/cuda/copy_bandwidth.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "common/cuda/device_buffer.hpp"

namespace gpu {

CopyBandwidth measure_copy_bandwidth(std::size_t bytes, int repetitions) {
  if (bytes == 0) throw std::invalid_argument("measure_copy_bandwidth: bytes must be > 0");
  DeviceBuffer<unsigned char> source(bytes), destination(bytes);
  source.fill_bytes(0x5a);  // Not zeros: some paths run faster on zero pages.
  CopyBandwidth result;
  result.bytes = bytes;
  result.timing = time_launches(
      "cudaMemcpy(DeviceToDevice)",
      [&] {
        GPU_CHECK(cudaMemcpy(destination.get(), source.get(), bytes, cudaMemcpyDeviceToDevice));
      },
      3, repetitions);
  result.gigabytes_per_second = 2.0 * static_cast<double>(bytes) / (result.timing.median_ms * 1e6);
  return result;
}

}  // namespace gpu
