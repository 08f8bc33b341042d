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
