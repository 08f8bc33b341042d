// Chapter 07: what the GPU checks run on the device, callable from host code.
#pragma once

#include <cuda_runtime.h>

namespace ch07::probes {

/// Launches your swizzled_transpose_kernel with the contract's block and grid.
void launch_yours(const float* in, float* out, int rows, int cols);

/// The kernel's attributes (static shared memory, registers).
cudaFuncAttributes attributes();

/// The lesson's experiment, with the grader's own kernels (chapter 05's contract): the padded
/// tile of chapter 06 (rows of 33 words), and the same tile with every shared access's column
/// XORed with `zero`, a kernel argument that is 0 at run time, so the XOR is executed but moves
/// nothing. Launch only.
void launch_padded(const float* in, float* out, int rows, int cols);
void launch_padded_with_xor(const float* in, float* out, int rows, int cols);

}  // namespace ch07::probes
