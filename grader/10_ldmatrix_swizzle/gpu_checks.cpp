// Chapter 10 GPU checks (work in progress): the counters against exercise 2b's predictions.
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "grader/10_ldmatrix_swizzle/swizzle_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"

TEST_CASE("ch10 exercise 2b on the GPU: the counters count what you predicted", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  const ch10::Layout layouts[] = {ch10::Layout::kPlain, ch10::Layout::kPadded16,
                                  ch10::Layout::kSwizzled};
  const char* names[] = {"plain", "padded16", "swizzled"};
  std::vector<smem::WarpRequest> requests;
  for (int row_bytes : {64, 128}) {
    for (ch10::Layout layout : layouts) {
      requests.push_back(ch10::spec::ldmatrix_x4(
          row_bytes, layout, {row_bytes == 128 ? 3 : 2, 4, 3}, 0, 0, ch10::spec::swizzle));
    }
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  std::size_t n = 0;
  for (int row_bytes : {64, 128}) {
    for (int k = 0; k < 3; ++k) {
      const int counted = measured[n].wavefronts;
      grader::record_measurement(
          grader::chapter::kMeasurementFile,
          "counted.ldmatrix_x4.rows" + std::to_string(row_bytes) + "." + names[k], counted,
          "wavefronts");
      const int predicted = ch10::predicted_ldmatrix_wavefronts(row_bytes, layouts[k]);
      GRADER_EXPECT(
          counted == predicted,
          grader::Feedback("The GPU counted " + grader::wavefronts(counted) +
                           " for the ldmatrix.x4 on " + std::to_string(row_bytes) + "-byte rows, " +
                           names[k] + "; you predicted " + std::to_string(predicted) + ".")
              .picture(grader::draw(requests[n])));
      ++n;
    }
  }
}
