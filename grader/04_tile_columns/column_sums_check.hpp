// Chapter 04: the GPU checks' judgement of block_column_sums_kernel, for the hand-out's shapes
// and for official grading's others alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "grader/04_tile_columns/device_probes.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch04::checks {

/// block_column_sums_kernel against the CPU on each (rows, cols) of `shapes`, on random data
/// from `seed`; the feedback for the first wrong sum.
inline std::optional<grader::Feedback> column_sums_problem(
    const std::vector<std::pair<int, int>>& shapes, std::uint64_t seed) {
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const auto& [rows, cols] : shapes) {
    std::vector<float> m(static_cast<size_t>(rows) * cols);
    for (float& x : m) x = uniform(rng);
    const std::vector<float> out = ch04::probes::block_column_sums(m, rows, cols);
    for (int b = 0; b * 32 < rows; ++b) {
      for (int j = 0; j < cols; ++j) {
        double want = 0, scale = 0;
        for (int i = 32 * b; i < std::min(rows, 32 * b + 32); ++i) {
          want += m[static_cast<size_t>(i) * cols + j];
          scale += std::fabs(m[static_cast<size_t>(i) * cols + j]);
        }
        const float got = out[static_cast<size_t>(b) * cols + j];
        if (!(std::fabs(got - want) <= 1e-5 * scale + 1e-6)) {
          grader::Feedback f("block_column_sums_kernel on a " + std::to_string(rows) + " x " +
                             std::to_string(cols) + " matrix: out[" + std::to_string(b) + " * " +
                             std::to_string(cols) + " + " + std::to_string(j) + "] is " +
                             std::to_string(got) + ", expected " + std::to_string(want) + ".");
          if (std::isnan(got))
            f.line("The output was never written (it still holds the NaN poison).");
          f.hint(
              "rows and columns past the matrix count as zero; every column j < cols of every "
              "row block gets one sum.");
          return f;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace ch04::checks
