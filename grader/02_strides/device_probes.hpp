// Chapter 02: what the GPU checks run on the device, callable from host code (gpu_checks.cpp).
#pragma once

#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/counters/smem_counters.hpp"

namespace ch02::probes {

/// One launch of the student's stride_probe_kernel: cycles per iteration and the sink.
struct ProbeRun {
  double cycles_per_load = 0;
  std::vector<unsigned> sink;  ///< What each lane wrote (poisoned with 0xAAAAAAAA before).
};

/// Launches stride_probe_kernel<<<1, 32>>> `launches` times; the median cycles per load.
ProbeRun run_stride_probe(int stride, int iterations, int launches);

/// The hardware counters of one launch of stride_probe_kernel at each stride, in the order of
/// `strides`, all in one profiler session (whose setup, whatever it counts, is paid once).
std::vector<gpu::SmemCounters> count_stride_probes(const std::vector<int>& strides, int iterations);

/// Output of owner_sums_kernel with the given layout on `in` (32 floats per owner).
std::vector<float> owner_sums(const std::vector<float>& in, int owners, bool your_layout);

/// Median milliseconds of owner_sums_kernel with your layout and with the thread-major one, on
/// device-resident random data of `owners` owners; also the device copy of the same bytes.
struct OwnerSumsTimes {
  double yours_ms = 0, thread_major_ms = 0, copy_ms = 0;
  double bytes = 0;  ///< Bytes read plus written by one launch.
};
OwnerSumsTimes time_owner_sums(int owners);

}  // namespace ch02::probes
