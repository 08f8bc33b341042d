// What a profiler session of the shared-memory counters costs on this GPU, whatever it counts:
// the same known kernel (gpu::launch_counter_probe) measured one launch per session, and all
// launches in one session (gpu::measure_smem_counters_each), in one process after the
// session's setup. A check that counts several launches counts them in one session because of
// these numbers.
//
//   build/tools/maintainer/counter_session_cost OUT.tsv [LAUNCHES]   (default 10)
//
// On the GPU machine: writes OUT.tsv (tools/maintainer/measurements/h200/counter-sessions.tsv);
// exits 77 where counters cannot be read, 1 on a count that is not the probe's.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/event_timer.hpp"
#include "common/cuda/gpu_info.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool counted_right(const gpu::SmemCounters& c) {
  return c.load_instructions == 1 && c.store_instructions == 1 && c.load_wavefronts == 1;
}

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 2 ? std::atoi(argv[2]) : 10;
  if (argc < 2 || launches < 2 || launches > 1000) {
    std::fprintf(stderr, "usage: %s OUT.tsv [LAUNCHES, 2 to 1000; default 10]\n", argv[0]);
    return 2;
  }
  const gpu::GpuInfo info = gpu::detect_gpu();
  if (!info.usable) {
    std::fprintf(stderr, "no GPU to measure: %s\n", info.reason.c_str());
    return 77;
  }
  try {
    auto start = std::chrono::steady_clock::now();
    if (!gpu::counters_available().available) {
      std::fprintf(stderr, "counters cannot be read here: %s\n",
                   gpu::counters_available().reason.c_str());
      return 77;
    }
    const double first = seconds_since(start);  // the session's setup and one measurement
    std::vector<double> single;
    for (int i = 0; i < launches; ++i) {
      start = std::chrono::steady_clock::now();
      const gpu::SmemCounters c = gpu::measure_smem_counters(gpu::launch_counter_probe);
      single.push_back(seconds_since(start));
      if (!counted_right(c)) {
        std::fprintf(stderr, "a session counted something other than the probe\n");
        return 1;
      }
    }
    start = std::chrono::steady_clock::now();
    const std::vector<gpu::SmemCounters> all =
        gpu::measure_smem_counters_each(launches, [](int) { gpu::launch_counter_probe(); });
    const double together = seconds_since(start);
    for (const gpu::SmemCounters& c : all) {
      if (!counted_right(c)) {
        std::fprintf(stderr, "one session of %d launches miscounted the probe\n", launches);
        return 1;
      }
    }
    double single_total = 0;
    for (double s : single) single_total += s;
    FILE* out = std::fopen(argv[1], "w");
    if (out == nullptr) {
      std::perror(argv[1]);
      return 1;
    }
    std::fprintf(out,
                 "# Written by tools/maintainer/probes/counter_session_cost.cpp; do not edit by "
                 "hand.\n# GPU: %s\n# quantity\tvalue\tunit\n"
                 "first_measurement.seconds\t%.3f\ts\n"
                 "one_launch_per_session.launches\t%d\tlaunches\n"
                 "one_launch_per_session.median_seconds\t%.3f\ts\n"
                 "one_launch_per_session.total_seconds\t%.3f\ts\n"
                 "one_session.total_seconds\t%.3f\ts\n",
                 info.describe().c_str(), first, launches, gpu::median(single), single_total,
                 together);
    std::fclose(out);
    std::printf("%d launches: %.3f s one session each (median %.3f s), %.3f s in one session\n",
                launches, single_total, gpu::median(single), together);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
