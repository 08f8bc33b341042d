// Chapter 02 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/02_strides/device_probes.hpp"

#include "chapters/02_strides/strides.cuh"

#include <algorithm>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/event_timer.hpp"
#include "common/cuda/kernel_module.hpp"
#include "common/cuda/random_fill.hpp"
#include "grader/harness/speed.hpp"

namespace ch02::probes {

ProbeRun run_stride_probe(int stride, int iterations, int launches) {
  gpu::DeviceBuffer<long long> cycles(1);
  gpu::DeviceBuffer<unsigned> sink(32);
  std::vector<double> per_load;
  ProbeRun run;
  for (int i = 0; i < launches; ++i) {
    sink.fill_bytes(0xAA);
    cycles.fill_bytes(0);
    gpu::launch(stride_probe_kernel, 1, 32, 0, stride, iterations, cycles.get(), sink.get());
    GPU_CHECK_KERNEL("stride_probe_kernel (yours)");
    per_load.push_back(static_cast<double>(cycles.download()[0]) / iterations);
    run.sink = sink.download();
  }
  run.cycles_per_load = gpu::median(per_load);
  return run;
}

std::vector<gpu::SmemCounters> count_stride_probes(const std::vector<int>& strides,
                                                   int iterations) {
  if (strides.empty()) return {};
  gpu::DeviceBuffer<long long> cycles(1);
  gpu::DeviceBuffer<unsigned> sink(32);
  return gpu::measure_smem_counters_each(static_cast<int>(strides.size()), [&](int i) {
    gpu::launch(stride_probe_kernel, 1, 32, 0, strides[static_cast<std::size_t>(i)], iterations,
                cycles.get(), sink.get());
    GPU_CHECK(cudaGetLastError());
  });
}

namespace probe_code {
template <typename Layout>
void launch_owner_sums(const float* in, float* out, int owners) {
  const int blocks = (owners + kThreads - 1) / kThreads;
  gpu::launch(owner_sums_kernel<Layout>, blocks, kThreads,
              static_cast<size_t>(Layout::words()) * sizeof(float), in, out, owners);
}
}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

std::vector<float> owner_sums(const std::vector<float>& in, int owners, bool your_layout) {
  gpu::DeviceBuffer<float> device_in(in);
  gpu::DeviceBuffer<float> out(static_cast<size_t>(owners));
  out.fill_bytes(0xff);  // NaN: an owner never written shows
  if (your_layout) {
    launch_owner_sums<YourLayout>(device_in.get(), out.get(), owners);
    GPU_CHECK_KERNEL("owner_sums_kernel<YourLayout>");
  } else {
    launch_owner_sums<ThreadMajorLayout>(device_in.get(), out.get(), owners);
    GPU_CHECK_KERNEL("owner_sums_kernel<ThreadMajorLayout>");
  }
  return out.download();
}

OwnerSumsTimes time_owner_sums(int owners) {
  const size_t values = static_cast<size_t>(owners) * kValuesPerThread;
  gpu::DeviceBuffer<float> in(values);
  gpu::random_floats(in.get(), static_cast<long long>(values), 7);
  gpu::DeviceBuffer<float> out(static_cast<size_t>(owners));
  OwnerSumsTimes t;
  t.bytes = static_cast<double>(values + owners) * sizeof(float);
  t.yours_ms = grader::time_kernel(
                   "owner_sums_kernel<YourLayout>",
                   [&] { launch_owner_sums<YourLayout>(in.get(), out.get(), owners); }, t.bytes)
                   .median_ms;
  t.thread_major_ms =
      grader::time_kernel(
          "owner_sums_kernel<ThreadMajorLayout>",
          [&] { launch_owner_sums<ThreadMajorLayout>(in.get(), out.get(), owners); }, t.bytes)
          .median_ms;
  t.copy_ms = grader::time_copy(t.bytes).median_ms;
  return t;
}

}  // namespace ch02::probes
