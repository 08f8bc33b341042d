/// @file line_fit.hpp
/// @brief Least-squares straight line, to check that a measured cost follows a prediction.
#pragma once

#include <stdexcept>
#include <vector>

namespace grader {

/// y = intercept + slope * x, and how well it fits.
struct LineFit {
  double slope = 0;
  double intercept = 0;
  double r_squared = 0;         ///< 1 - residual sum of squares / total sum of squares.
  double max_abs_residual = 0;  ///< Largest |y - line(x)| over the points.
};

/// Fits a line through (x[i], y[i]). Throws std::invalid_argument when the lists differ in
/// length, have fewer than 3 points, or all x are equal (no line to fit).
inline LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_line: x and y differ in length");
  const double n = static_cast<double>(x.size());
  if (x.size() < 3) throw std::invalid_argument("fit_line: fewer than 3 points");
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) throw std::invalid_argument("fit_line: all x values are equal");
  LineFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = my - fit.slope * mx;
  double residual = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = y[i] - (fit.intercept + fit.slope * x[i]);
    residual += e * e;
    fit.max_abs_residual = e > fit.max_abs_residual    ? e
                           : -e > fit.max_abs_residual ? -e
                                                       : fit.max_abs_residual;
  }
  fit.r_squared = syy == 0 ? 1.0 : 1.0 - residual / syy;
  return fit;
}

}  // namespace grader
