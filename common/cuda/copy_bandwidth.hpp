/// @file copy_bandwidth.hpp
/// @brief Device-to-device copy bandwidth: the yardstick for memory-bound kernels.
#pragma once

#include <cstddef>

#include "common/cuda/event_timer.hpp"

namespace gpu {

/// A measured device-to-device copy.
struct CopyBandwidth {
  std::size_t bytes = 0;  ///< Bytes copied per launch (read once and written once).
  Timing timing;          ///< Times of the timed copies.
  /// Bytes read plus bytes written per second, in GB/s (1e9 bytes), from the median time.
  double gigabytes_per_second = 0;
};

/// Times `cudaMemcpy` device-to-device of `bytes` bytes (medians of `repetitions` copies after
/// a warm-up) and counts the bytes read plus the bytes written. Pick `bytes` several times the
/// L2 cache. Throws std::invalid_argument for `bytes` == 0, CudaError when allocation fails.
CopyBandwidth measure_copy_bandwidth(std::size_t bytes, int repetitions = 21);

}  // namespace gpu
