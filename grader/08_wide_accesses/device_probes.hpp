// Chapter 08: what the GPU checks run on the device, callable from host code.
#pragma once

#include "smem_counters.hpp"

namespace ch08::probes {

/// Launches your wide_transpose_kernel with the contract's block and grid.
void launch_yours(const float* in, float* out, int rows, int cols);

/// The hardware counters of your kernel transposing one 64 x 64 tile.
gpu::SmemCounters count_one_tile();

}  // namespace ch08::probes
