// Chapter 08 GPU checks: correctness (tails included), the counters against your predictions, and
// speed against the device copy.
#include <string>

#include "device_probes.hpp"
#include "feedback.hpp"
#include "measurements.hpp"
#include "random_seed.hpp"
#include "transpose_bench.hpp"
#include "wide_accesses.cuh"

namespace {
constexpr const char* kMeasurementFile = "ch08_wide_accesses";
const char* const kKernel = "wide_transpose_kernel (yours)";
// 64 x 64 tiles; float4 rows need both sizes to be multiples of 4.
const transpose::Contract kContract{ch08::kTile, 4};
}  // namespace

TEST_CASE("ch08 exercise 2: wide_transpose_kernel is correct, tails included", "[gpu][ch08]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem =
      transpose::check_correct(ch08::probes::launch_yours, kKernel, grader::run_seed(), kContract);
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch08 exercise 3 on the GPU: counters agree with your predictions", "[gpu][ch08]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  const gpu::SmemCounters c = ch08::probes::count_one_tile();
  if (c.store_instructions == 0 || c.load_instructions == 0) {
    GRADER_FAIL(grader::Feedback("Your kernel executed " + grader::fixed(c.store_instructions, 0) +
                                 " shared stores and " + grader::fixed(c.load_instructions, 0) +
                                 " shared loads for one tile; it must stage the tile in shared "
                                 "memory.")
                    .hint("exercise 2 is not done yet, or does not use the tile."));
  }
  const double store = c.store_wavefronts / c.store_instructions;
  const double load = c.load_wavefronts / c.load_instructions;
  grader::record_measurement(kMeasurementFile, "counted.store_wavefronts", store, "wavefronts");
  grader::record_measurement(kMeasurementFile, "counted.load_wavefronts", load, "wavefronts");
  GRADER_EXPECT(store == ch08::predicted_tile_store_wavefronts() &&
                    load == ch08::predicted_tile_load_wavefronts(),
                grader::Feedback("The GPU counted " + grader::fixed(store) +
                                 " wavefronts per tile store and " + grader::fixed(load) +
                                 " per tile load in your kernel; you predicted " +
                                 std::to_string(ch08::predicted_tile_store_wavefronts()) + " and " +
                                 std::to_string(ch08::predicted_tile_load_wavefronts()) + ".")
                    .hint("every shared access of the contract is one float4 through "
                          "tile_chunk_offset; scalar accesses, or accesses past the layout, "
                          "count differently."));
}

TEST_CASE("ch08 exercise 2: the wide transpose runs at copy speed", "[gpu][ch08]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const auto problem = transpose::judge_fraction_of_copy(
      ch08::probes::launch_yours, kKernel, "float4, 64 x 64 tile (yours)", kMeasurementFile,
      "ch08.fraction_of_copy",
      "the host checks show whether a tile access conflicts; then check that every global "
      "access is one float4 and that the four loads of a thread are issued before its stores.",
      kContract);
  GRADER_EXPECT(!problem, *problem);
}
