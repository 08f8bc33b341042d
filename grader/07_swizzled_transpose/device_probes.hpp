// Chapter 07: what the GPU checks run on the device, callable from host code.
#pragma once

#include <cuda_runtime.h>

namespace ch07::probes {

/// Launches your swizzled_transpose_kernel with the contract's block and grid.
void launch_yours(const float* in, float* out, int rows, int cols);

/// The kernel's attributes (static shared memory, registers).
cudaFuncAttributes attributes();

}  // namespace ch07::probes
