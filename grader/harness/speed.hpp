/// @file speed.hpp
/// @brief Timing kernels against each other in one run, and the table students see.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/cuda/gpu_info.hpp"
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

/// A table of rows: median time, GB/s, fraction of the first row's GB/s (when it is a copy),
/// fraction of the memory's peak `memory_peak` (bytes per second; the column and a last line
/// naming it only when > 0), and speed relative to `reference_row` (its time / the row's).
std::string speed_table(const std::vector<SpeedRow>& rows, std::size_t reference_row,
                        double memory_peak = 0);

/// The memory's peak bandwidth of the GPU the checks run on, in bytes per second (0: not known):
/// the ceiling of the memory-bound checks, which needs no clock.
double memory_peak();

/// The hardware ceilings of the GPU the checks run on (gpu::ceilings), at the SM clock measured
/// now (its peak clock where that cannot be measured): what every speed check prints beside its
/// in-run ratio.
gpu::Ceilings hardware_ceilings();

/// The guard on a run's yardstick (cuBLAS, in the GEMM checks): a feedback refusing to judge a
/// kernel fast when the yardstick reached less than half of `ceiling` (`per_second` against it,
/// both in one unit) in this run, a busy or throttled GPU; nothing when it reached half or the
/// ceiling is 0.
std::optional<Feedback> yardstick_too_slow(const std::string& yardstick, double per_second,
                                           double ceiling, const std::string& ceiling_name);

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

/// Records the speedup, both fractions of copy and the fraction of the memory's peak (where it
/// is known), and prints the check's title and the table of the copy, the baseline and yours;
/// returns the table.
std::string record_speed_table(const SpeedCheck& check, double yours_ms, double baseline_ms,
                               double copy_ms, double bytes);

/// record_speed_table(), then the speedup judged against the check's threshold. Returns the
/// feedback for a failure, or nothing.
std::optional<Feedback> judge_speed(const SpeedCheck& check, double yours_ms, double baseline_ms,
                                    double copy_ms, double bytes);

}  // namespace grader
