/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it.
///
/// The measured quantity is read from this chapter's file in `measurements/h200/`; the chapter's
/// lesson checks fail when it no longer clears the threshold by the headroom given.
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"fraction_of_copy", 0.70, Bound::kAtLeast, "transpose.fraction_of_copy", 1.2,
     "The padded transpose against the device copy, 8192 x 8192 floats, same run. Leaves margin "
     "below the reference (0.92) and fails chapter 05's conflicted tile (0.43 of copy on H200)."},
    {"reference_fraction_of_copy", 0.85, Bound::kAtLeast, "transpose.fraction_of_copy", 1.0,
     "The reference solution itself must reach 0.85 of copy on H200 (issue 5)."},
};

/// The threshold named `name` in the table above.
inline const Threshold& threshold(const char* name) {
  return find_threshold(kThresholds, name);
}

}  // namespace grader::chapter
