/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it.
///
/// The measured quantity is read from this chapter's file in `measurements/h200/`; the chapter's
/// lesson checks fail when it no longer clears the threshold by the headroom given.
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"padding_speedup", 2.0, Bound::kAtLeast, "column_sums.speedup_over_unpadded", 1.2,
     "Column sums through a padded tile[32][33] against the grader's 32-way tile[32][32], "
     "8192 x 8192 floats, same run."},
};

/// The threshold named `name` in the table above.
inline const Threshold& threshold(const char* name) {
  return find_threshold(kThresholds, name);
}

}  // namespace grader::chapter
