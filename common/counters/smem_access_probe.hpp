/// @file smem_access_probe.hpp
/// @brief Kernels whose shared-memory counts are known: one warp request run on the GPU and read
/// back from the counters, and the probe that proves counters can be read.
#pragma once

#include <vector>

#include "common/model/bank_model.hpp"

namespace gpu {

/// Wavefronts and Nsight-Compute-style bank conflicts of one request, as the counters saw them.
struct MeasuredAccess {
  int wavefronts = 0;  ///< Wavefronts of the request (counter / instructions).
  int conflicts = 0;   ///< Bank conflicts of the request, as Nsight Compute counts them.
};

/// Launches one warp that executes exactly one shared-memory instruction for `request` (a load
/// or store of its width at each active lane's address, or one ldmatrix), under the hardware
/// counters. Throws CountersUnavailable when counters cannot be read, and std::runtime_error
/// when the request needs more shared memory than a block may have (`max_shared_bytes`) or the
/// kernel did not execute exactly one shared-memory instruction.
MeasuredAccess measure_warp_request(const smem::WarpRequest& request, int max_shared_bytes);

/// measure_warp_request() for many requests in one profiler session (one kernel launch each),
/// results in the order of `requests`.
std::vector<MeasuredAccess> measure_warp_requests(const std::vector<smem::WarpRequest>& requests,
                                                  int max_shared_bytes);

/// Launches one warp that stores one word per lane to shared memory and loads it back
/// (conflict-free): exactly one shared store and one shared load instruction, one wavefront
/// each. Checks the launch.
void launch_counter_probe();

}  // namespace gpu
