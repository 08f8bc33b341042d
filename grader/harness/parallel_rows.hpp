/// @file parallel_rows.hpp
/// @brief A loop over the rows of a matrix, split over the CPU's threads: the GEMM chapters'
/// random operands and fp64 references, which took seconds of a grade on one thread.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

namespace grader {

/// Calls body(row) once for every row in [0, rows), in contiguous blocks of rows, one block per
/// thread (at most 16 threads). `body` may write only what belongs to its own row. The plain
/// loop it replaces:
///
///     for (int row = 0; row < rows; ++row) body(row);
template <typename Body>
void parallel_rows(int rows, const Body& body) {
  const long long threads = std::min<long long>(
      rows, std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 16));
  if (threads <= 1) {
    for (int row = 0; row < rows; ++row) body(row);
    return;
  }
  std::vector<std::thread> pool;
  for (long long t = 0; t < threads; ++t) {
    const int first = static_cast<int>(rows * t / threads);
    const int end = static_cast<int>(rows * (t + 1) / threads);
    pool.emplace_back([&body, first, end] {
      for (int row = first; row < end; ++row) body(row);
    });
  }
  for (std::thread& thread : pool) thread.join();
}

}  // namespace grader
