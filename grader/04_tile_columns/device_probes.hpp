// Chapter 04: what the GPU checks run on the device, callable from host code.
#pragma once

#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "common/counters/smem_counters.hpp"

namespace ch04::probes {

/// Your block_column_sums_kernel on a rows x cols matrix; ceil(rows / 32) x cols outputs.
std::vector<float> block_column_sums(const std::vector<float>& m, int rows, int cols);

/// Median milliseconds of your kernel, of the grader's unpadded one (tile[32][32]), and of a
/// device copy of the same bytes, on a rows x cols matrix of random floats.
struct ColumnSumTimes {
  double yours_ms = 0, unpadded_ms = 0, copy_ms = 0;
  double bytes = 0;
};
ColumnSumTimes time_block_column_sums(int rows, int cols);

/// The shared-memory counters of your kernel summing one 32 x 32 tile (one block).
gpu::SmemCounters count_one_block();

}  // namespace ch04::probes
