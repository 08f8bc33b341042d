/// @file speed.hpp
/// @brief Timing kernels against each other in one run, and the table students see.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grader/harness/feedback_message.hpp"
#include "grader/harness/threshold.hpp"

namespace grader {

/// One timed kernel: its median over many launches and what that means in bandwidth.
struct SpeedRow {
  std::string name;      ///< What was timed ("copy (cudaMemcpy)", "your kernel", ...).
  double median_ms = 0;  ///< Median of the timed launches.
  double bytes = 0;      ///< Bytes the kernel must read plus write (0: not a bandwidth kernel).
  /// Bytes over the median time, in GB/s (0 when bytes is 0).
  double gigabytes_per_second() const { return bytes > 0 ? bytes / (median_ms * 1e6) : 0; }
};

/// Times `launch` (one kernel launch per call) with CUDA events: warm-up, then the median of
/// `repetitions` launches. `bytes` is the traffic the kernel must move, for the GB/s column.
SpeedRow time_kernel(const std::string& name, const std::function<void()>& launch, double bytes,
                     int repetitions = 31);

/// One kernel to time together with others: its name and one launch.
struct TimedKernel {
  std::string name;
  std::function<void()> launch;
};

/// Times several kernels in turns: each is warmed up, then every round launches each once, and
/// each row is the median of its `rounds` launches. A GPU that slows as it heats (power or
/// thermal limits) then slows all of them alike, so their ratios stay fair; timing one kernel
/// after another would charge the slowdown to the last ones.
std::vector<SpeedRow> time_kernels_in_turns(const std::vector<TimedKernel>& kernels, double bytes,
                                            int rounds = 21);

/// The device-to-device copy of `bytes` bytes (read once, written once) as a row: the yardstick.
SpeedRow time_copy(double bytes);

/// A table of rows: median time, GB/s, fraction of the first row's GB/s (when it is a copy), and
/// speed relative to `reference_row` (time of reference / time of row).
std::string speed_table(const std::vector<SpeedRow>& rows, std::size_t reference_row);

/// A kernel timed against a baseline the grader ships, with the copy bandwidth for scale.
struct SpeedCheck {
  std::string file;            ///< Measurement file the numbers go to.
  std::string kernel;          ///< Quantity prefix, e.g. "owner_sums".
  std::string baseline_key;    ///< e.g. "thread_major": quantities `<kernel>.speedup_over_<key>`,
                               ///< `<kernel>.<key>_fraction_of_copy`, `<kernel>.fraction_of_copy`.
  std::string baseline_label;  ///< Table row of the baseline.
  std::string yours_label;     ///< Table row of the student's kernel.
  std::string title;           ///< Printed above the table.
  const Threshold& threshold;  ///< Minimum speedup over the baseline.
  std::string subject;         ///< Start of the failure headline, e.g. "Your layout makes ...".
  std::string hint;            ///< Hint for a failure.
};

/// Records the speedup and both fractions of copy, prints the table, and judges the speedup
/// against the check's threshold. Returns the feedback for a failure, or nothing.
std::optional<Feedback> judge_speed(const SpeedCheck& check, double yours_ms, double baseline_ms,
                                    double copy_ms, double bytes);

}  // namespace grader
