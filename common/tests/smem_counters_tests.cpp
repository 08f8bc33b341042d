// The shared-memory counters on a GPU: a kernel whose counts are known reads back exactly.
#include <string>

#include "catch.hpp"
#include "feedback.hpp"
#include "smem_counters.hpp"
#include "test_kernels.hpp"

TEST_CASE("shared-memory counters read a known kernel exactly", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& available = gpu::counters_available();
  if (!available.available) GRADER_SKIP("counters not available: " + available.reason);
  // One warp, a conflict-free store then a 32-way load (column of float[32][32]).
  const gpu::SmemCounters c = gpu::measure_smem_counters(test_kernels::launch_column_read);
  CHECK(c.store_instructions == 1);
  CHECK(c.store_wavefronts == 1);
  CHECK(c.load_instructions == 1);
  CHECK(c.load_wavefronts == 32);
  CHECK(c.load_conflicts == 31);
  CHECK(c.ldsm_instructions == 0);
}

TEST_CASE("shared-memory counters refuse a callback that launches two kernels", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  CHECK_THROWS_WITH(gpu::measure_smem_counters([] {
                      test_kernels::launch_column_read();
                      test_kernels::launch_column_read();
                    }),
                    GRADER_CONTAINS("expected exactly one kernel launch"));
}
