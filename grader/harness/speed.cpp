#include "speed.hpp"

#include <cstdio>
#include <sstream>

#include "copy_bandwidth.hpp"
#include "event_timer.hpp"

namespace grader {

SpeedRow time_kernel(const std::string& name, const std::function<void()>& launch, double bytes,
                     int repetitions) {
  const gpu::Timing timing = gpu::time_launches(name.c_str(), launch, 3, repetitions);
  return SpeedRow{name, timing.median_ms, bytes};
}

SpeedRow time_copy(double bytes) {
  const gpu::CopyBandwidth copy = gpu::measure_copy_bandwidth(static_cast<std::size_t>(bytes / 2));
  return SpeedRow{"device copy (cudaMemcpy)", copy.timing.median_ms, bytes};
}

std::string speed_table(const std::vector<SpeedRow>& rows, std::size_t reference_row) {
  std::ostringstream out;
  char line[200];
  std::snprintf(line, sizeof line, "  %-34s %10s %10s %9s %9s\n", "kernel", "median ms", "GB/s",
                "of copy", "speed");
  out << line;
  const double copy_gbps = rows.empty() ? 0 : rows.front().gigabytes_per_second();
  for (const SpeedRow& row : rows) {
    const double gbps = row.gigabytes_per_second();
    const double speed = rows[reference_row].median_ms / row.median_ms;
    std::snprintf(line, sizeof line, "  %-34s %10.4f %10.0f %9.2f %8.2fx\n", row.name.c_str(),
                  row.median_ms, gbps, copy_gbps > 0 ? gbps / copy_gbps : 0.0, speed);
    out << line;
  }
  return out.str();
}

}  // namespace grader
