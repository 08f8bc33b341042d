/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"speedup_over_naive", 5.0, Bound::kAtLeast, "transpose.speedup_over_naive", 1.2,
     "To calibrate on the H200."},
    {"reference_fraction_of_copy", 0.88, Bound::kAtLeast, "transpose.fraction_of_copy", 1.0,
     "The reference must reach 0.88 of the device copy on the full H200 (issue 15)."},
};

}  // namespace grader::chapter
