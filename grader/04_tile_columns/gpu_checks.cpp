// Chapter 04 GPU checks: your column-sum kernel is correct on odd sizes and faster than the
// unpadded version.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/model/bank_model.hpp"
#include "grader/04_tile_columns/column_sums_check.hpp"
#include "grader/04_tile_columns/device_probes.hpp"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {
constexpr const char* kMeasurementFile = grader::chapter::kMeasurementFile;

// block_column_sums_kernel against the CPU on shapes with and without tails, one of them drawn
// from the run's seed.
std::optional<grader::Feedback> column_sums_problem() {
  const std::uint64_t seed = grader::run_seed();
  const int rows = 100 + static_cast<int>(seed % 60), cols = 200 + static_cast<int>(seed / 60 % 60);
  return ch04::checks::column_sums_problem({{32, 32}, {1, 1}, {31, 33}, {64, 96}, {rows, cols}},
                                           seed);
}
}  // namespace

WORKBOOK_CHECK(ex1_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // Column 0 of every graded tile at the student's pitch, where the pitch holds its row (the
  // host check says why any other is wrong), and fits the probe's 48 KiB. A class variant's
  // 48 widths of each element size are all counted; self-study's 256 are counted one in 15
  // (one profiled launch each, and the student's GPU suite stays under a minute), and a pitch
  // met twice once.
  const std::vector<ch04::spec::PitchCase> graded = ch04::spec::graded_pitches();
  std::vector<ch04::spec::PitchCase> cases;
  const bool self_study = grader::variant::current().self_study();
  for (std::size_t i = 0; i < graded.size(); ++i) {
    if (!self_study || i % 15 == 0) cases.push_back(graded[i]);
  }
  std::vector<ch04::spec::PitchCase> counted;
  std::vector<smem::WarpRequest> requests;
  std::vector<std::pair<int, int>> seen;  // (element size, pitch) already counted
  int too_large = 0;
  for (const ch04::spec::PitchCase& c : cases) {
    const int pitch = ch04::padded_pitch(c.element_bytes, c.width);
    if (pitch < c.width || pitch > c.width + 64) {
      GRADER_FAIL(grader::Feedback("Not counted: " + ch04::spec::call_of(c) + " is " +
                                   std::to_string(pitch) + ", which cannot hold the row.")
                      .hint("the host check of exercise 1 says what is wrong."));
    }
    if (32LL * pitch * c.element_bytes > 48 * 1024) {
      ++too_large;
      continue;
    }
    const std::pair<int, int> key{c.element_bytes, pitch};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    counted.push_back(c);
    requests.push_back(ch04::spec::column_read(c.element_bytes, pitch, 0));
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (std::size_t i = 0; i < counted.size(); ++i) {
    if (measured[i].conflicts == 0) continue;
    const ch04::spec::PitchCase& c = counted[i];
    GRADER_FAIL(grader::Feedback("At " + ch04::spec::call_of(c) + " = " +
                                 std::to_string(ch04::padded_pitch(c.element_bytes, c.width)) +
                                 " the GPU counted " + std::to_string(measured[i].conflicts) +
                                 " bank conflicts reading column 0 (" +
                                 grader::wavefronts(measured[i].wavefronts) + ").")
                    .picture(grader::draw(requests[i]))
                    .hint(c.element_bytes >= 8
                              ? "count the row in elements, as the host check does: each group "
                                "of lanes needs its own bank pairs or quads."
                              : "count the row length in 4-byte words, as the host check does."));
  }
  std::cout << "The counters saw " << counted.size() << " distinct pitches of your "
            << graded.size() << " graded tiles read without a conflict (of " << cases.size()
            << " tiles asked, " << too_large << " exceed the probe's 48 KiB).\n";
  SUCCEED();
}

WORKBOOK_CHECK(ex2_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto fault = ch04::spec::kernel_pitch_fault()) {
    GRADER_FAIL(grader::Feedback("Not run: " + *fault + ".")
                    .hint("the kernel's shared memory is sized by it: do exercise 1 first."));
  }
  const auto problem = column_sums_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto fault = ch04::spec::kernel_pitch_fault()) {
    GRADER_FAIL(grader::Feedback("Not counted: " + *fault + ".")
                    .hint("the kernel's shared memory is sized by it: do exercise 1 first."));
  }
  const int pitch = ch04::padded_pitch(4, ch04::kTile);
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // What the layout promises: a warp storing a tile row, and a warp reading column 0 at the pitch.
  const int row_store = smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kStore, [](int t) {
                          return 4LL * t;
                        })).wavefronts;
  const int column_load =
      smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [pitch](int t) {
        return 4LL * pitch * t;
      })).wavefronts;
  const gpu::SmemCounters c = ch04::probes::count_one_block();
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
  GRADER_EXPECT(
      store == row_store && load == column_load,
      grader::Feedback("Your kernel's shared accesses take " + grader::fixed(store) +
                       " wavefronts per store and " + grader::fixed(load) +
                       " per column read (hardware counters, one tile); padded_pitch(4, "
                       "32) = " +
                       std::to_string(pitch) + " promises " + grader::wavefronts(row_store) +
                       " and " + grader::wavefronts(column_load) + ".")
          .hint("stage the tile in the dynamic shared memory the grader gives, its rows at "
                "the pitch your padded_pitch(4, 32) returns."));
}

WORKBOOK_CHECK(ex2_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (const auto fault = ch04::spec::kernel_pitch_fault()) {
    GRADER_FAIL(grader::Feedback("Not timed: " + *fault + ".")
                    .hint("the kernel's shared memory is sized by it: do exercise 1 first."));
  }
  if (column_sums_problem()) {  // correctness gates speed
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not timed", "block_column_sums_kernel gives wrong sums"));
  }
  const int rows = 8192, cols = 8192;
  const ch04::probes::ColumnSumTimes t = ch04::probes::time_block_column_sums(rows, cols);
  const grader::SpeedCheck check{kMeasurementFile,
                                 "column_sums",
                                 "unpadded",
                                 "unpadded kernel (tile[32][32])",
                                 "your kernel",
                                 "block_column_sums_kernel, " + std::to_string(rows) + " x " +
                                     std::to_string(cols) + " floats (median of 31 launches):",
                                 grader::chapter::threshold("padding_speedup"),
                                 "Your kernel is",
                                 "are the column reads really at your padded_pitch(4, 32)? "
                                 "Draw a column read at that pitch with analyze_smem_access."};
  const auto problem = grader::judge_speed(check, t.yours_ms, t.unpadded_ms, t.copy_ms, t.bytes);
  GRADER_EXPECT(!problem, *problem);
}
