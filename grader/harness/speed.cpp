#include "grader/harness/speed.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "common/cuda/copy_bandwidth.hpp"
#include "common/cuda/event_timer.hpp"
#include "grader/harness/measurements.hpp"

namespace grader {

SpeedRow time_kernel(const std::string& name, const std::function<void()>& launch, double bytes,
                     int repetitions) {
  const gpu::Timing timing = gpu::time_launches(name.c_str(), launch, 3, repetitions);
  return SpeedRow{name, timing.median_ms, bytes};
}

std::vector<SpeedRow> time_kernels_in_turns(const std::vector<TimedKernel>& kernels, double bytes,
                                            int rounds) {
  if (rounds < 1) throw std::invalid_argument("time_kernels_in_turns: rounds must be >= 1");
  std::vector<std::vector<double>> samples(kernels.size());
  for (const TimedKernel& k : kernels) gpu::time_launches(k.name.c_str(), k.launch, 3, 1);
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const gpu::Timing t = gpu::time_launches(kernels[i].name.c_str(), kernels[i].launch, 0, 1);
      samples[i].push_back(t.median_ms);
    }
  }
  std::vector<SpeedRow> rows;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    rows.push_back(SpeedRow{kernels[i].name, gpu::median(samples[i]), bytes});
  }
  return rows;
}

SpeedRow time_copy(double bytes) {
  const gpu::CopyBandwidth copy = gpu::measure_copy_bandwidth(static_cast<std::size_t>(bytes / 2));
  return SpeedRow{"device copy (cudaMemcpy)", copy.timing.median_ms, bytes};
}

std::string speed_table(const std::vector<SpeedRow>& rows, std::size_t reference_row,
                        double memory_peak) {
  std::ostringstream out;
  char line[200];
  const bool peak = memory_peak > 0;
  std::snprintf(line, sizeof line, "  %-34s %10s %10s %9s%s %9s\n", "kernel", "median ms", "GB/s",
                "of copy", peak ? "   of peak" : "", "speed");
  out << line;
  const double copy_gbps = rows.empty() ? 0 : rows.front().gigabytes_per_second();
  for (const SpeedRow& row : rows) {
    const double gbps = row.gigabytes_per_second();
    const double speed = rows[reference_row].median_ms / row.median_ms;
    char of_peak[16] = "";
    if (peak) std::snprintf(of_peak, sizeof of_peak, " %9.2f", gbps * 1e9 / memory_peak);
    std::snprintf(line, sizeof line, "  %-34s %10.4f %10.0f %9.2f%s %8.2fx\n", row.name.c_str(),
                  row.median_ms, gbps, copy_gbps > 0 ? gbps / copy_gbps : 0.0, of_peak, speed);
    out << line;
  }
  if (peak) {
    std::snprintf(line, sizeof line,
                  "  (peak: %.0f GB/s, two transfers per memory clock over the bus, from the "
                  "GPU's properties)\n",
                  memory_peak / 1e9);
    out << line;
  }
  return out.str();
}

double memory_peak() {
  return gpu::ceilings(gpu::detect_gpu()).memory_bytes_per_second;
}

gpu::Ceilings hardware_ceilings() {
  return gpu::ceilings(gpu::detect_gpu(), gpu::measure_sm_clock_hz());
}

std::optional<Feedback> yardstick_too_slow(const std::string& yardstick, double per_second,
                                           double ceiling, const std::string& ceiling_name) {
  if (ceiling <= 0 || per_second >= ceiling / 2) return std::nullopt;
  return Feedback("Not judged fast: in this run " + yardstick + ", the yardstick, reached only " +
                  fixed(per_second / ceiling) + " of " + ceiling_name +
                  " (at least 0.50 when the GPU is not shared or throttled), so a ratio to it "
                  "would flatter your kernel.")
      .hint("run the GPU checks again on an idle GPU (nvidia-smi shows what else runs on it).");
}

std::string record_speed_table(const SpeedCheck& check, double yours_ms, double baseline_ms,
                               double copy_ms, double bytes) {
  record_measurement(check.file, check.kernel + ".speedup_over_" + check.baseline_key,
                     baseline_ms / yours_ms, "x");
  record_measurement(check.file, check.kernel + ".fraction_of_copy", copy_ms / yours_ms, "");
  record_measurement(check.file, check.kernel + "." + check.baseline_key + "_fraction_of_copy",
                     copy_ms / baseline_ms, "");
  const double peak = memory_peak();
  if (peak > 0) {
    record_measurement(check.file, check.kernel + ".fraction_of_memory_peak",
                       bytes / (yours_ms * 1e-3) / peak, "");
  }
  const std::string table = speed_table({{"device copy (cudaMemcpy)", copy_ms, bytes},
                                         {check.baseline_label, baseline_ms, bytes},
                                         {check.yours_label, yours_ms, bytes}},
                                        1, peak);
  std::cout << check.title << "\n" << table;
  return table;
}

std::optional<Feedback> judge_speed(const SpeedCheck& check, double yours_ms, double baseline_ms,
                                    double copy_ms, double bytes) {
  const std::string table = record_speed_table(check, yours_ms, baseline_ms, copy_ms, bytes);
  const double speedup = baseline_ms / yours_ms;
  const Threshold& need = check.threshold;
  if (passes(need, speedup)) return std::nullopt;
  return Feedback(check.subject + " " + fixed(speedup) + "x as fast as the " +
                  check.baseline_label + "; it must reach " + fixed(need.value) + "x.")
      .picture(table)
      .hint(check.hint);
}

}  // namespace grader
