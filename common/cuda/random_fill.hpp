/// @file random_fill.hpp
/// @brief Random floats written on the GPU, for the large inputs that speed checks time.
#pragma once

namespace gpu {

/// Fills device memory `x[0..n)` with floats in [-1, 1): element i is the top 24 bits of
/// splitmix64 of (seed, i), so a seed gives the same matrix on every GPU. Drawn on the host
/// with std::mt19937, the 2^26 floats of a speed check's input took 0.5 s of its check on 2
/// cores; here a few milliseconds. Throws (GPU_CHECK_KERNEL) if the fill fails.
void random_floats(float* x, long long n, unsigned long long seed);

}  // namespace gpu
