/// @file event_timer.hpp
/// @brief Median time of many launches, measured with CUDA events after a warm-up.
#pragma once

#include <functional>
#include <vector>

namespace gpu {

/// Times of repeated launches, in milliseconds.
struct Timing {
  double median_ms = 0;         ///< Median of the timed launches: the figure to compare.
  double min_ms = 0;            ///< Fastest launch.
  double max_ms = 0;            ///< Slowest launch.
  std::vector<double> samples;  ///< Every timed launch, in order.
};

/// Runs `launch` `warmup` times untimed, then `repetitions` times, each between two CUDA events
/// on the default stream, and returns the median. Every launch is checked for errors: `kernel`
/// names it in the message. Throws std::invalid_argument when `repetitions` < 1.
Timing time_launches(const char* kernel, const std::function<void()>& launch, int warmup = 3,
                     int repetitions = 21);

/// Median of a list of numbers (the mean of the two middle ones for an even count).
/// Throws std::invalid_argument for an empty list.
double median(std::vector<double> values);

}  // namespace gpu
