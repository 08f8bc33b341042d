// Chapter 08: what the GPU checks run on the device, callable from host code.
#pragma once

namespace ch08::probes {

/// Launches your wide_transpose_kernel with the contract's block and grid.
void launch_yours(const float* in, float* out, int rows, int cols);

}  // namespace ch08::probes
