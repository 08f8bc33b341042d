/// @file cost_fit.hpp
/// @brief Does a measured cost follow the predicted wavefronts? The verdict shared by chapters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "grader/harness/feedback_message.hpp"
#include "grader/harness/line_fit.hpp"
#include "grader/harness/threshold.hpp"

namespace grader {

/// One access pattern: its label, the student's prediction, and the measured cycles per load.
struct CostPoint {
  std::string label;
  double predicted = 0;
  double cycles = 0;
};

/// The three limits a cost fit must meet (from the chapter's thresholds).
struct CostFitLimits {
  const Threshold& r_squared;                ///< Least R^2 of the line.
  const Threshold& cycles_per_wavefront;     ///< Least slope, in cycles per wavefront.
  const Threshold& max_residual_wavefronts;  ///< Farthest point off the line, in wavefronts.
};

/// Fits cycles = intercept + slope x predicted over `points`, prints the table and the fit,
/// records the fit as `fit.*` quantities in measurement file `file`, and judges it against
/// `limits`. Returns the feedback for a failed check, or nothing.
std::optional<Feedback> judge_cost_fit(const std::vector<CostPoint>& points,
                                       const CostFitLimits& limits, const std::string& file,
                                       const std::string& what);

}  // namespace grader
