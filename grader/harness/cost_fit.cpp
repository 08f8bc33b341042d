#include "grader/harness/cost_fit.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "grader/harness/measurements.hpp"

namespace grader {

std::optional<Feedback> judge_cost_fit(const std::vector<CostPoint>& points,
                                       const CostFitLimits& limits, const std::string& file,
                                       const std::string& what) {
  std::ostringstream table;
  table << "  " << std::left << std::setw(22) << what << std::right << std::setw(10) << "predicted"
        << std::setw(13) << "cycles/load\n";
  std::vector<double> predicted, cycles;
  for (const CostPoint& p : points) {
    predicted.push_back(p.predicted);
    cycles.push_back(p.cycles);
    table << "  " << std::left << std::setw(22) << p.label << std::right << std::setw(10)
          << p.predicted << std::setw(12) << fixed(p.cycles, 1) << "\n";
  }
  std::cout << table.str();
  if (std::all_of(predicted.begin(), predicted.end(),
                  [&](double x) { return x == predicted.front(); })) {
    return Feedback(
               "Your predictions are all equal, so they cannot explain the different costs "
               "measured:")
        .picture(table.str());
  }
  const LineFit fit = fit_line(predicted, cycles);
  const double residual = fit.slope > 0 ? fit.max_abs_residual / fit.slope : 1e9;
  record_measurement(file, "fit.cycles_per_wavefront", fit.slope, "cycles");
  record_measurement(file, "fit.intercept", fit.intercept, "cycles");
  record_measurement(file, "fit.r_squared", fit.r_squared, "");
  record_measurement(file, "fit.max_residual_wavefronts", residual, "wavefronts");
  std::cout << "  fit: cycles = " << fixed(fit.intercept, 1) << " + " << fixed(fit.slope, 2)
            << " x predicted wavefronts, R^2 = " << fixed(fit.r_squared, 3) << ", farthest "
            << fixed(residual, 2) << " wavefronts off the line\n";
  const Threshold& r2 = limits.r_squared;
  const Threshold& slope = limits.cycles_per_wavefront;
  const Threshold& off = limits.max_residual_wavefronts;
  if (passes(r2, fit.r_squared) && passes(slope, fit.slope) && passes(off, residual)) {
    return std::nullopt;
  }
  return Feedback(
             "The measured cost does not follow your predictions: a line through "
             "(predicted wavefronts, cycles) fits with R^2 = " +
             fixed(fit.r_squared, 3) + " (need >= " + fixed(r2.value, 2) + ") and " +
             fixed(fit.slope, 2) + " cycles per wavefront (need >= " + fixed(slope.value, 2) +
             "); the farthest point is " + fixed(residual, 2) +
             " wavefronts off the line (need <= " + fixed(off.value, 2) + ").")
      .picture(table.str())
      .hint(
          "a row whose cycles sit far from the others with the same prediction is "
          "mispredicted; the host checks show which, with a picture.");
}

}  // namespace grader
