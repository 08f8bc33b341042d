/// @file thresholds.hpp
/// @brief This chapter's GPU thresholds, each with the H200 measurement that justifies it (the
/// quantity in this chapter's measurement file; see grader/harness/threshold.hpp).
#pragma once

#include "grader/harness/threshold.hpp"

namespace grader::chapter {

inline constexpr Threshold kThresholds[] = {
    {"padding_speedup", 2.0, Bound::kAtLeast, "column_sums.speedup_over_unpadded", 1.2,
     "Column sums through the reference's padded tile against the grader's 32-way "
     "tile[32][32], 8192 x 8192 floats, same run."},
};

}  // namespace grader::chapter
