// The CUDA helpers on a GPU: buffers, launch checks, the timer and the copy-bandwidth probe.
#include <string>
#include <vector>

#include "common/cuda/copy_bandwidth.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/gpu_info.hpp"
#include "common/cuda/tests/test_kernels.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("GPU detection describes the device", "[gpu][cuda_helpers]") {
  const gpu::GpuInfo info = gpu::detect_gpu();
  REQUIRE(info.usable);
  CHECK(info.reason.empty());
  CHECK(info.major >= 7);
  CHECK(info.describe().find("sm_") != std::string::npos);
  CHECK_FALSE(gpu::detect_gpu(99, 0).usable);
  CHECK(gpu::detect_gpu(99, 0).reason.find("these checks need 99.0 or newer") != std::string::npos);
}

TEST_CASE("device buffers round-trip and kernels fill them", "[gpu][cuda_helpers]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  gpu::DeviceBuffer<int> buffer(1000);
  buffer.fill_bytes(0xff);
  CHECK(buffer.download()[999] == -1);
  test_kernels::launch_iota(buffer.get(), 1000);
  const std::vector<int> host = buffer.download();
  CHECK(host[0] == 0);
  CHECK(host[999] == 999);
  CHECK_THROWS_AS(buffer.upload(std::vector<int>(3)), std::invalid_argument);
}

TEST_CASE("a bad launch is reported with the kernel's name and the context survives",
          "[gpu][cuda_helpers]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  try {
    test_kernels::launch_with_bad_configuration();
    FAIL("the launch with 4096 threads per block did not fail");
  } catch (const gpu::CudaError& e) {
    CHECK_FALSE(e.sticky());
    CHECK(std::string(e.what()).find("launching kernel iota_kernel failed") != std::string::npos);
  }
  CHECK(gpu::context_lost().empty());
}

TEST_CASE("timer and copy bandwidth give plausible medians", "[gpu][cuda_helpers]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CopyBandwidth copy = gpu::measure_copy_bandwidth(256u << 20, 11);
  CHECK(copy.timing.samples.size() == 11);
  CHECK(copy.timing.min_ms <= copy.timing.median_ms);
  CHECK(copy.timing.median_ms <= copy.timing.max_ms);
  // Any GPU of compute capability 7.5 or newer copies at more than 100 GB/s and less than
  // 100 TB/s; outside that the timing or the byte count is wrong.
  CHECK(copy.gigabytes_per_second > 100);
  CHECK(copy.gigabytes_per_second < 100000);
  CHECK_THROWS_AS(gpu::measure_copy_bandwidth(0), std::invalid_argument);
}

// The ceilings' arithmetic against NVIDIA's published peaks (no GPU needed).
TEST_CASE("hardware ceilings follow the published peaks", "[host][cuda_helpers]") {
  gpu::GpuInfo h100;  // H100 SXM5: 132 SMs, HBM3 at 2619 MHz over 5120 bits
  h100.major = 9;
  h100.multiprocessors = 132;
  h100.sm_clock_khz = 1980000;
  h100.memory_clock_khz = 2619000;
  h100.memory_bus_bits = 5120;
  const gpu::Ceilings at_1830 = gpu::ceilings(h100, 1.83e9);
  CHECK(at_1830.fp16_tensor_flops / 1e12 == Approx(989.4).epsilon(0.001));  // the datasheet's
  CHECK(at_1830.memory_bytes_per_second / 1e12 == Approx(3.35).epsilon(0.001));
  CHECK(at_1830.fp32_flops / 1e12 == Approx(61.8).epsilon(0.01));
  CHECK(at_1830.shared_bytes_per_second == Approx(132 * 128 * 1.83e9));
  const gpu::Ceilings at_peak_clock = gpu::ceilings(h100);  // the property's clock
  CHECK(at_peak_clock.sm_clock_hz == Approx(1.98e9));
  CHECK(at_1830.clock_measured);
  CHECK_FALSE(at_peak_clock.clock_measured);
  CHECK(at_peak_clock.fp16_tensor_flops > at_1830.fp16_tensor_flops);
  gpu::GpuInfo slice = h100;  // an MPS slice sees fewer SMs: compute ceilings shrink, memory not
  slice.multiprocessors = 13;
  CHECK(gpu::ceilings(slice, 1.83e9).fp16_tensor_flops ==
        Approx(at_1830.fp16_tensor_flops * 13 / 132));
  CHECK(gpu::ceilings(slice, 1.83e9).memory_bytes_per_second ==
        Approx(at_1830.memory_bytes_per_second));
  gpu::GpuInfo a100 = h100;  // A100 SXM: 108 SMs at 1410 MHz, 312 TFLOP/s fp16, 19.5 fp32
  a100.major = 8;
  a100.multiprocessors = 108;
  CHECK(gpu::ceilings(a100, 1.41e9).fp16_tensor_flops / 1e12 == Approx(312).epsilon(0.001));
  CHECK(gpu::ceilings(a100, 1.41e9).fp32_flops / 1e12 == Approx(19.5).epsilon(0.001));
  gpu::GpuInfo unknown = h100;  // an architecture the table does not hold: no tensor ceiling
  unknown.major = 8;
  unknown.minor = 9;
  CHECK(gpu::ceilings(unknown, 1.83e9).fp16_tensor_flops == 0);
  CHECK(gpu::ceilings(unknown, 1.83e9).fp32_flops > 0);
  CHECK(gpu::ceilings(gpu::GpuInfo{}, 1.83e9).memory_bytes_per_second == 0);
}
