/// @file cost_fit.hpp
/// @brief Does a measured cost follow the predicted wavefronts? The verdict shared by chapters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "grader/harness/feedback_message.hpp"
#include "grader/harness/line_fit.hpp"

namespace grader {

/// One access pattern: its label, the student's prediction, and the measured cycles per load.
struct CostPoint {
  std::string label;
  double predicted = 0;
  double cycles = 0;
};

/// Fits cycles = intercept + slope x predicted over `points`, prints the table and the fit,
/// records the fit as `fit.*` quantities in measurement file `file`, and judges it against the
/// thresholds `<chapter>.cost_fit_r_squared`, `<chapter>.cycles_per_wavefront` and
/// `<chapter>.max_residual_wavefronts`. Returns the feedback for a failed check, or nothing.
std::optional<Feedback> judge_cost_fit(const std::vector<CostPoint>& points,
                                       const std::string& chapter, const std::string& file,
                                       const std::string& what);

}  // namespace grader
