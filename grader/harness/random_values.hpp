/// @file random_values.hpp
/// @brief gpu::random_float on the host, over the CPU's threads: the random inputs of checks
/// that need them on the host too (the GEMM chapters' fp64 references, the transposes'
/// comparisons), which std::mt19937 drew in most of a second per check.
#pragma once

#include <cstddef>
#include <vector>

#include "common/cuda/random_fill.hpp"
#include "grader/harness/parallel_rows.hpp"

namespace grader {

/// Element i is convert(gpu::random_float(seed, i)), for i in [0, n): what gpu::random_floats
/// writes on the GPU, converted (to __half, say). The plain loop it replaces:
///
///     for (std::size_t i = 0; i < n; ++i) values[i] = convert(gpu::random_float(seed, i));
template <typename T, typename Convert>
std::vector<T> random_values(std::size_t n, unsigned long long seed, const Convert& convert) {
  constexpr std::size_t kBlock = std::size_t{1} << 16;  // elements per parallel_rows row
  std::vector<T> values(n);
  parallel_rows(static_cast<int>((n + kBlock - 1) / kBlock), [&](int block) {
    const std::size_t first = static_cast<std::size_t>(block) * kBlock;
    const std::size_t end = first + kBlock < n ? first + kBlock : n;
    for (std::size_t i = first; i < end; ++i) values[i] = convert(gpu::random_float(seed, i));
  });
  return values;
}

/// random_values() as floats, uniform in [-1, 1).
inline std::vector<float> random_floats(std::size_t n, unsigned long long seed) {
  return random_values<float>(n, seed, [](float x) { return x; });
}

}  // namespace grader
