// Kernels for the CUDA helper tests, callable from host code.
#pragma once

namespace test_kernels {

/// Launches a kernel with an impossible block size (a launch error, not a crash).
void launch_with_bad_configuration();

/// Launches a kernel that writes through a null pointer (a crash: the context is lost).
void launch_crashing_kernel();

/// Launches one warp that stores a float per lane to a float[32][32] tile (a row, one
/// wavefront) and reads column 5 (32 wavefronts). Checks the launch, does not synchronise.
void launch_column_read();

/// Launches one warp that reads 32 consecutive floats (1 request, 4 sectors) and stores each
/// 128 bytes from the last (1 request, 32 sectors). Checks the launch, does not synchronise.
void launch_strided_copy();

/// Launches a kernel that fills `n` ints at `out` with their index.
void launch_iota(int* out, int n);

}  // namespace test_kernels
