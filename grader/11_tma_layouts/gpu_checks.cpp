// Chapter 11 GPU checks: tma_smem_offset against the layouts the TMA itself writes; the
// predictions against the counters; tma_transpose_kernel's results, counted shared accesses and
// speed against the naive transpose and the device copy, measured in the same run.
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/tma_map.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {

using ch11::TmaSwizzle;
using grader::chapter::kMeasurementFile;

const TmaSwizzle kModes[] = {TmaSwizzle::kNone, TmaSwizzle::k32B, TmaSwizzle::k64B,
                             TmaSwizzle::k128B};

// The TMA needs compute capability 9.0.
#define NEEDS_SM90() GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers")

// Your maps, made once on a small shape: a refused map is reported here, once, as such.
std::optional<grader::Feedback> maps_refused() {
  gpu::DeviceBuffer<float> in(64 * 64), out(64 * 64);
  try {
    (void)ch11::make_input_map(in.get(), 64, 64);
    (void)ch11::make_output_map(out.get(), 64, 64);
  } catch (const gpu::TmaMapError& e) {
    return grader::Feedback("Your tensor map was refused, so the kernel never ran.")
        .line(e.what())
        .hint("make_input_map must describe boxes the TMA can write in the mode you chose.");
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("ch11 exercise 1 on the GPU: the TMA puts every byte where tma_smem_offset says",
          "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  int model_mismatches = 0;
  for (TmaSwizzle mode : kModes) {
    std::vector<int> widths;  // box row widths in floats
    for (int bytes = 16; bytes <= std::min(ch11::spec::span(mode), 144); bytes += 16) {
      widths.push_back(bytes / 4);
    }
    for (int box_cols : widths) {
      const int box_rows = 64, row_bytes = 4 * box_cols;
      const std::vector<float> dump = ch11::probes::dump_tma_box(mode, box_rows, box_cols);
      std::vector<int> where(dump.size(), -1);  // byte offset of each (row, col) word
      for (std::size_t k = 0; k < dump.size(); ++k) {
        const int code = static_cast<int>(dump[k]) - 1;
        if (code >= 0)
          where[static_cast<size_t>(code / 4096 * box_cols + code % 4096)] =
              static_cast<int>(4 * k);
      }
      for (int r = 0; r < box_rows; ++r) {
        for (int c = 0; c < box_cols; ++c) {
          const int hardware = where[static_cast<size_t>(r * box_cols + c)];
          if (hardware != ch11::spec::offset(mode, row_bytes, r, 4 * c)) ++model_mismatches;
          const int yours = ch11::tma_smem_offset(mode, row_bytes, r, 4 * c);
          if (yours == hardware) continue;
          GRADER_FAIL(grader::Feedback("The H200's TMA, loading a box of " +
                                       std::to_string(box_rows) + " rows of " +
                                       std::to_string(row_bytes) + " bytes in " +
                                       ch11::spec::name(mode) + ", put byte " +
                                       std::to_string(4 * c) + " of row " + std::to_string(r) +
                                       " at offset " + std::to_string(hardware) +
                                       "; tma_smem_offset says " + std::to_string(yours) + ".")
                          .hint("the host check of exercise 1 shows the rule."));
        }
      }
      // For the lesson's tables: where each chunk of box rows 0-7 landed within its 128-byte
      // line, for rows as wide as the span, and for 32-byte rows in the 128-byte mode.
      if ((mode != TmaSwizzle::kNone && row_bytes == ch11::spec::span(mode)) ||
          (mode == TmaSwizzle::k128B && row_bytes == 32)) {
        for (int r = 0; r < 8; ++r) {
          for (int c = 0; c < box_cols / 4; ++c) {
            grader::record_measurement(kMeasurementFile,
                                       std::string("layout.") + ch11::spec::name(mode) + ".rows" +
                                           std::to_string(row_bytes) + ".row" + std::to_string(r) +
                                           ".chunk" + std::to_string(c),
                                       where[static_cast<size_t>(r * box_cols + 4 * c)] % 128 / 16,
                                       "place in line");
          }
        }
      }
    }
  }
  // A destination 128 bytes past a 1024-byte boundary: the 128B pattern follows the absolute
  // address, so the box is not where a 1024-aligned one would be.
  {
    const std::vector<float> dump = ch11::probes::dump_tma_box(TmaSwizzle::k128B, 8, 32, 128);
    int same = 0;
    for (int k = 0; k < 256; ++k) {
      const int code = static_cast<int>(dump[static_cast<size_t>(k)]) - 1;
      same += 4 * k == ch11::spec::offset(TmaSwizzle::k128B, 128, code / 4096, 4 * (code % 4096));
    }
    grader::record_measurement(kMeasurementFile, "layout.k128B.base128.words_as_if_aligned", same,
                               "of 256");
  }
  grader::record_measurement(kMeasurementFile, "layout.model_mismatches", model_mismatches, "");
}

TEST_CASE("ch11 exercise 2 on the GPU: the counters count what you predicted", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  std::vector<smem::WarpRequest> requests;
  for (TmaSwizzle mode : kModes) {
    for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
      requests.push_back(ch11::spec::column_read(mode, read));
    }
  }
  requests.push_back(ch11::spec::padded_column(ch11::spec::least_padded_pitch()));
  // Not graded, for the lesson: a column of doubles in a 128-byte-row box, plain and 128B, and
  // the transpose's first chunk read with rows 4 apart and with the turn.
  for (TmaSwizzle mode : {TmaSwizzle::kNone, TmaSwizzle::k128B}) {
    requests.push_back(smem::WarpRequest::from_lanes(
        8, smem::Op::kLoad, [&](int t) { return ch11::spec::offset(mode, 128, t, 0); }));
  }
  for (bool turn : {false, true}) {
    requests.push_back(smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int t) {
      const int q = t % 16;
      return ch11::spec::offset(TmaSwizzle::k128B, 128, 4 * q + (turn ? q / 2 % 4 : 0),
                                16 * (t / 16));
    }));
  }
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  std::size_t n = 0;
  for (TmaSwizzle mode : kModes) {
    for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
      const char* how = read == ch11::ColumnRead::kWords ? "words" : "chunks";
      const int counted = measured[n].wavefronts;
      grader::record_measurement(
          kMeasurementFile, std::string("counted.column.") + ch11::spec::name(mode) + "." + how,
          counted, "wavefronts");
      const int predicted = ch11::predicted_column_wavefronts(mode, read);
      GRADER_EXPECT(counted == predicted,
                    grader::Feedback("The GPU counted " + grader::wavefronts(counted) +
                                     " for the column of " + how + " in " + ch11::spec::name(mode) +
                                     "; you predicted " + std::to_string(predicted) + ".")
                        .reveal(grader::draw(requests[n])));
      ++n;
    }
  }
  const int counted = measured[n].wavefronts;
  grader::record_measurement(kMeasurementFile, "counted.padded_column", counted, "wavefronts");
  const char* lesson_only[] = {"counted.doubles_column.kNone", "counted.doubles_column.k128B",
                               "counted.transpose_read.rows_4_apart",
                               "counted.transpose_read.turned"};
  for (std::size_t k = 0; k < 4; ++k) {
    grader::record_measurement(kMeasurementFile, lesson_only[k], measured[n + 1 + k].wavefronts,
                               "wavefronts");
  }
  GRADER_EXPECT(counted == ch11::predicted_padded_column_wavefronts(),
                grader::Feedback("The GPU counted " + grader::wavefronts(counted) +
                                 " for the column of the padded tile; you predicted " +
                                 std::to_string(ch11::predicted_padded_column_wavefronts()) + ".")
                    .reveal(grader::draw(requests[n])));
}

TEST_CASE("ch11 exercise 3: tma_transpose_kernel is exact, tails included", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  const auto problem = transpose::check_correct(ch11::probes::launch_yours, "tma_transpose_kernel",
                                                grader::run_seed(), {ch11::kBoxRows, 4});
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch11 exercise 3: the counters see conflict-free 16-byte reads and writes", "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  if (transpose::check_correct(ch11::probes::launch_yours, "tma_transpose_kernel",
                               grader::run_seed(), {ch11::kBoxRows, 4})) {
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not counted", "tma_transpose_kernel gives wrong results"));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  constexpr int rows = 4 * ch11::kBoxRows, cols = 2 * ch11::kBoxCols;  // 8 boxes
  gpu::DeviceBuffer<float> in(static_cast<size_t>(rows) * cols), out(in.size());
  const gpu::SmemCounters got = gpu::measure_smem_counters([&] {
    ch11::probes::launch_yours(in.get(), out.get(), rows, cols);
    GPU_CHECK(cudaGetLastError());
  });
  // Per box, each of 4 warps: 4 float4 reads and 4 float4 writes, 4 wavefronts each at best.
  const double accesses = 8.0 * 4 * 4, ideal = 4 * accesses;
  char counted[400];
  std::snprintf(counted, sizeof counted,
                "8 boxes: counted %.0f shared loads taking %.0f wavefronts and %.0f shared stores "
                "taking %.0f; the contract's %.0f float4 reads and %.0f float4 writes take %.0f "
                "each without conflicts.",
                got.load_instructions, got.load_wavefronts, got.store_instructions,
                got.store_wavefronts, accesses, accesses, ideal);
  std::cout << counted << "\n";
  grader::record_measurement(kMeasurementFile, "counted.transpose.load_wavefronts_per_request",
                             got.load_wavefronts / std::max(1.0, got.load_instructions), "");
  grader::record_measurement(kMeasurementFile, "counted.transpose.store_wavefronts_per_request",
                             got.store_wavefronts / std::max(1.0, got.store_instructions), "");
  GRADER_EXPECT(got.load_instructions == accesses && got.store_instructions == accesses,
                grader::Feedback("Your kernel's shared accesses are not the contract's.")
                    .line(counted)
                    .hint("each thread reads 4 float4 chunks of each box and writes 4 float4 "
                          "chunks of the output tile; nothing else touches shared memory but "
                          "the TMA."));
  GRADER_EXPECT(got.load_wavefronts <= ideal && got.store_wavefronts <= ideal,
                grader::Feedback("The GPU counted more shared-memory wavefronts in your kernel "
                                 "than its accesses need.")
                    .line(counted)
                    .hint("read the box through tma_smem_offset in a mode where each group of 8 "
                          "lanes finds its 8 chunks in 8 different bank quads."));
}

TEST_CASE("ch11 exercise 3: the TMA transpose is fast, against the naive one and the copy",
          "[gpu]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  const auto problem = transpose::judge_speedup_over_naive(
      ch11::probes::launch_yours, "tma_transpose_kernel", "TMA transpose (yours)", kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "the counters check shows whether the reads conflict; every box must be in flight "
      "kStages at a time.",
      {ch11::kBoxRows, 4});
  GRADER_EXPECT(!problem, *problem);
}
