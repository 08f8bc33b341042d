/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"uniform_speedup", 1.35, Bound::kAtLeast, "speedup.uniform_keys", 1.2,
     "A conflict-free table against the naive one (3- or 4-way for uniform random keys) on 2^25 "
     "keys x 16 lookups, same run; the reference layout reached 1.67x on H200."},
    {"other_keys_speed", 0.75, Bound::kAtLeast, "speedup.one_key_for_all", 1.1,
     "Where the naive table has no conflict (one key, four keys, sequential keys) the reference "
     "ran at 0.87 of its speed on H200 (occupancy.*_blocks_per_sm in the measurement file: the "
     "occupancy API allows fewer blocks of its larger table per SM); a layout much slower than "
     "that wastes what it saves."},
};

}  // namespace grader::chapter
