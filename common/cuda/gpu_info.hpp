/// @file gpu_info.hpp
/// @brief Which GPU the checks would run on, or why there is none.
#pragma once

#include <string>

namespace gpu {

/// The result of looking for a usable GPU.
struct GpuInfo {
  bool usable = false;  ///< True when GPU checks can run.
  /// Why GPU checks cannot run (empty when usable), in words a student can act on.
  std::string reason;
  int device = 0;           ///< CUDA device index that will be used.
  std::string name;         ///< Marketing name, e.g. "NVIDIA H200".
  int major = 0;            ///< Compute capability, major.
  int minor = 0;            ///< Compute capability, minor.
  int multiprocessors = 0;  ///< SM count.
  int l2_bytes = 0;         ///< L2 cache size.
  int driver_version = 0;   ///< cudaDriverGetVersion, e.g. 13000.
  /// "NVIDIA H200 (sm_90, 132 SMs, driver 13.0)".
  std::string describe() const;
};

/// Looks for device 0 (or the one CUDA_VISIBLE_DEVICES leaves first) and checks that it has
/// compute capability >= `min_major`.`min_minor` and that this program holds code it can run.
/// Never throws: every problem becomes `reason`.
GpuInfo detect_gpu(int min_major = 7, int min_minor = 5);

}  // namespace gpu
