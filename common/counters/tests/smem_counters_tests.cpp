// The shared-memory counters on a GPU: a kernel whose counts are known reads back exactly.
#include <string>
#include <vector>

#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/tests/test_kernels.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/feedback.hpp"

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

TEST_CASE("global traffic counters read known kernels exactly", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  // A coalesced read and a store of 32 floats 128 bytes apart: 4 and 32 sectors.
  const gpu::GlobalTraffic strided = gpu::measure_global_traffic(test_kernels::launch_strided_copy);
  CHECK(strided.load_requests == 1);
  CHECK(strided.load_sectors == 4);
  CHECK(strided.store_requests == 1);
  CHECK(strided.store_sectors == 32);
  // The column read's kernel: no global load, one coalesced store of 32 floats.
  const gpu::GlobalTraffic column = gpu::measure_global_traffic(test_kernels::launch_column_read);
  CHECK(column.load_requests == 0);
  CHECK(column.store_requests == 1);
  CHECK(column.store_sectors == 4);
  // The shared-memory counters still read after a global session (the two alternate).
  CHECK(gpu::measure_smem_counters(test_kernels::launch_column_read).load_wavefronts == 32);
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

TEST_CASE("shared-memory counters of many launches in one session, in order", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  // Three warp requests of known cost: 32-way, 1 wavefront, and a 16-byte store (4, no conflict).
  std::vector<smem::WarpRequest> requests;
  requests.push_back(
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 128 * t; }));
  requests.push_back(
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 4 * t; }));
  requests.push_back(
      smem::WarpRequest::from_lanes(16, smem::Op::kStore, [](int t) { return 16 * t; }));
  const std::vector<gpu::MeasuredAccess> m = gpu::measure_warp_requests(requests, 48 * 1024);
  REQUIRE(m.size() == 3);
  CHECK(m[0].wavefronts == 32);
  CHECK(m[0].conflicts == 31);
  CHECK(m[1].wavefronts == 1);
  CHECK(m[2].wavefronts == 4);
  CHECK(m[2].conflicts == 0);
  // A callback that launches one kernel too many is refused, naming the counts.
  CHECK_THROWS_WITH(gpu::measure_smem_counters_each(2,
                                                    [](int i) {
                                                      test_kernels::launch_column_read();
                                                      if (i == 1)
                                                        test_kernels::launch_column_read();
                                                    }),
                    GRADER_CONTAINS("expected 2 kernel launches to profile, saw 3"));
}
