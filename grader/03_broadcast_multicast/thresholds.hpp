/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"uniform_speedup", 1.35, Bound::kAtLeast, "speedup.uniform_keys", 1.2,
     "A conflict-free table against the naive one (3- or 4-way for uniform random keys) on 2^25 "
     "keys x 16 lookups, same run; 32 interleaved copies reached 1.67x on H200."},
    {"other_keys_speed", 0.75, Bound::kAtLeast, "speedup.one_key_for_all", 1.1,
     "Where the naive table has no conflict (one key, four keys, sequential keys) 32 copies ran "
     "at 0.87 of its speed on H200 (a 32 KiB table leaves room for 7 blocks per SM, not 8); a "
     "layout much slower than that wastes what it saves."},
};

}  // namespace grader::chapter
