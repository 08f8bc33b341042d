#include "common/cuda/event_timer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {
// Two CUDA events, destroyed on every path out of time_launches.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    GPU_CHECK(cudaEventCreate(&start));
    GPU_CHECK(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};
}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of an empty list");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

Timing time_launches(const char* kernel, const std::function<void()>& launch, int warmup,
                     int repetitions) {
  if (repetitions < 1) throw std::invalid_argument("time_launches: repetitions must be >= 1");
  for (int i = 0; i < warmup; ++i) {
    launch();
    GPU_CHECK_KERNEL(kernel);
  }
  EventPair events;
  Timing timing;
  for (int i = 0; i < repetitions; ++i) {
    GPU_CHECK(cudaEventRecord(events.start));
    launch();
    GPU_CHECK(cudaEventRecord(events.stop));
    GPU_CHECK_KERNEL(kernel);
    float ms = 0;
    GPU_CHECK(cudaEventElapsedTime(&ms, events.start, events.stop));
    timing.samples.push_back(ms);
  }
  timing.median_ms = median(timing.samples);
  timing.min_ms = *std::min_element(timing.samples.begin(), timing.samples.end());
  timing.max_ms = *std::max_element(timing.samples.begin(), timing.samples.end());
  return timing;
}

}  // namespace gpu
