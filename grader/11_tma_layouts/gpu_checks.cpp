// Chapter 11 GPU checks: tma_smem_offset against the layouts the TMA itself writes; the
// predictions against the counters, on the boxes as the TMA lays them out; tma_transpose_kernel's
// results (what is wrong with them: transpose_diagnosis.cpp), counted shared accesses and speed
// against the naive transpose and the device copy, measured in the same run.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/11_tma_layouts/transpose_diagnosis.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {
using ch11::TmaSwizzle;
using grader::chapter::kMeasurementFile;
}  // namespace

// The TMA needs compute capability 9.0.
#define NEEDS_SM90() GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers")

WORKBOOK_CHECK(ex1_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  for (TmaSwizzle mode : ch11::spec::kModes) {
    for (int row_bytes = 16; row_bytes <= std::min(ch11::spec::widest_row(mode), 144);
         row_bytes += 16) {
      const int box_rows = 64, box_cols = row_bytes / 4;
      const std::vector<int> where = ch11::probes::tma_box_layout(mode, box_rows, box_cols);
      for (int r = 0; r < box_rows; ++r) {
        for (int c = 0; c < box_cols; ++c) {
          const int hardware = where[static_cast<size_t>(r * box_cols + c)];
          const int yours = ch11::tma_smem_offset(mode, row_bytes, r, 4 * c);
          if (yours == hardware) continue;
          GRADER_FAIL(grader::Feedback(
                          "The GPU's TMA, loading a box of " + std::to_string(box_rows) +
                          " rows of " + std::to_string(row_bytes) + " bytes in " +
                          ch11::spec::name(mode) + ", put byte " + std::to_string(4 * c) +
                          " of row " + std::to_string(r) +
                          " elsewhere than tma_smem_offset says (" + std::to_string(yours) + ").")
                          .reveal("It put it at offset " + std::to_string(hardware) + ".")
                          .hint("the host check of exercise 1 names the principle missed."));
        }
      }
    }
  }
}

WORKBOOK_CHECK(ex2_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // Each column is read where the GPU's own TMA put the box's rows; on a GPU without the TMA,
  // where your tma_smem_offset puts them, once it is right for the mode.
  const bool has_tma = grader::compute_capability_major() >= 9;
  struct Asked {
    std::string what;      // the prediction's call
    std::string box;       // the variant's box and read, for the message
    std::string quantity;  // the measurement's name
    int predicted;
    std::string principle;  // the misconception a prediction shows, where the grader can tell
  };
  std::vector<Asked> asked;
  std::vector<smem::WarpRequest> requests;
  // Your variant's boxes, columns and padded tile.
  const ch11::spec::Exercise2Case cases = ch11::spec::exercise2_case(grader::variant::current());
  for (TmaSwizzle mode : ch11::spec::kModes) {
    const ch11::spec::ColumnCase& box = cases.column(mode);
    const int row_bytes = box.row_bytes;
    ch11::spec::Layout layout;
    if (has_tma) {
      const std::vector<int> where = ch11::probes::tma_box_layout(mode, 32, row_bytes / 4);
      layout = [where, row_bytes](int row, int byte) {
        return static_cast<long long>(where[static_cast<size_t>(row * (row_bytes / 4) + byte / 4)]);
      };
    } else if (ch11::spec::mode_right(mode)) {
      layout = ch11::spec::exercise_layout(mode, row_bytes);
    }
    for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
      const std::string what = std::string("predicted_column_wavefronts(") +
                               ch11::spec::name(mode) + ", " + ch11::spec::name(read) + ")";
      if (!layout) {
        GRADER_EXPECT(false, grader::Feedback("Not counted: " + what +
                                              " is counted on this GPU (no TMA) once "
                                              "tma_smem_offset is right for " +
                                              ch11::spec::name(mode) + ".")
                                 .hint("finish exercise 1 (see the host checks) first."));
        continue;
      }
      const int predicted =
          ch11::predicted_column_wavefronts(mode, read, box.row_bytes, box.column);
      asked.push_back(
          {what, "your variant's box: " + ch11::spec::column_text(box, read),
           std::string("counted.column.") + ch11::spec::name(mode) + "." +
               (read == ch11::ColumnRead::kWords ? "words" : "chunks"),
           predicted,
           read == ch11::ColumnRead::kWords && mode != TmaSwizzle::kNone && predicted == 1
               ? "A swizzle moves whole 16-byte chunks, never the words inside them: how many "
                 "different banks can float " +
                     std::to_string(box.column) + " of a row reach?"
               : ""});
      requests.push_back(ch11::spec::column_read(read, layout, box.column));
    }
  }
  // Exercise 2c's column, at your pitch once it is right.
  const int pitch = ch11::least_padded_pitch();
  if (ch11::spec::pitch_problem(pitch, cases.padded_columns)) {
    GRADER_EXPECT(false,
                  grader::Feedback("Not counted: predicted_padded_column_wavefronts(pitch) is "
                                   "counted once least_padded_pitch() is right.")
                      .hint("finish exercise 2b (see the host checks) first."));
  } else {
    asked.push_back(
        {"predicted_padded_column_wavefronts(pitch_floats)",
         "a warp reading float 0 of 32 rows at your pitch of " + std::to_string(pitch) + " floats",
         "counted.padded_column", ch11::predicted_padded_column_wavefronts(pitch), ""});
    requests.push_back(ch11::spec::padded_column(pitch));
  }
  if (requests.empty()) return;
  const std::vector<gpu::MeasuredAccess> measured = gpu::measure_warp_requests(requests, 48 * 1024);
  for (std::size_t n = 0; n < asked.size(); ++n) {
    const int counted = measured[n].wavefronts;
    grader::record_measurement(kMeasurementFile, asked[n].quantity, counted, "wavefronts");
    grader::Feedback f("The GPU counted " + grader::more_or_fewer(counted, asked[n].predicted) +
                       " wavefronts than your " + asked[n].what + " predicts (" +
                       std::to_string(asked[n].predicted) + "), on " + asked[n].box + ".");
    if (!asked[n].principle.empty()) f.line(asked[n].principle);
    f.reveal("It counted " + grader::wavefronts(counted) + ":").reveal(grader::draw(requests[n]));
    GRADER_EXPECT(counted == asked[n].predicted, f);
  }
}

WORKBOOK_CHECK(ex3b_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = ch11::diagnosis::maps_refused()) GRADER_FAIL(*refused);
  const auto problem = ch11::diagnosis::transpose_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3b_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = ch11::diagnosis::maps_refused()) GRADER_FAIL(*refused);
  if (ch11::diagnosis::transpose_problem()) {
    GRADER_FAIL(grader::not_judged_while_wrong(
        "Not counted", "tma_transpose_kernel gives wrong results or never completes a wait"));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  constexpr int tiles = 4, rows = tiles * ch11::kBoxRows, cols = ch11::kTileCols;
  gpu::DeviceBuffer<float> in(static_cast<size_t>(rows) * cols), out(in.size());
  // One tile per block: while a warp reads a stage, no TMA load writes that block's shared
  // memory (the counter counts such a write's arbitration as wavefronts: 6.9 a read measured
  // with a block's four stages filling at once, against the ideal 4).
  const auto launch = [&] {
    ch11::probes::launch_yours_on(in.get(), out.get(), rows, cols, tiles);
    GPU_CHECK(cudaGetLastError());
  };
  const gpu::SmemCounters got = gpu::measure_smem_counters(launch);
  grader::chapter::show_lines_if_asked([&] { return grader::chapter::lines_of(launch); });
  // Per tile, each warp: 4 float4 reads and 4 float4 writes, 4 wavefronts each at best.
  const double accesses = 4.0 * tiles * (ch11::kThreads / 32), ideal = 4 * accesses;
  char counted[400];
  std::snprintf(counted, sizeof counted,
                "4 tiles: counted %.0f shared loads taking %.0f wavefronts and %.0f shared stores "
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
                    .picture(grader::chapter::lines_of(launch))
                    .hint("each thread reads 4 float4 chunks of each tile and writes 4 float4 "
                          "chunks of the output tile; nothing else touches shared memory but "
                          "the TMA."));
  GRADER_EXPECT(got.load_wavefronts <= ideal && got.store_wavefronts <= ideal,
                grader::Feedback("The GPU counted more shared-memory wavefronts in your kernel "
                                 "than its accesses need.")
                    .line(counted)
                    .picture(grader::chapter::lines_of(launch))
                    .hint("read the box through tma_smem_offset in a mode where each group of 8 "
                          "lanes finds its 8 chunks in 8 different bank quads."));
}

WORKBOOK_CHECK(ex3b_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = ch11::diagnosis::maps_refused()) GRADER_FAIL(*refused);
  if (ch11::diagnosis::transpose_problem()) {
    GRADER_FAIL(grader::not_judged_while_wrong(
        "Not timed", "tma_transpose_kernel gives wrong results or never completes a wait"));
  }
  const auto problem = transpose::judge_speedup_over_naive(
      ch11::probes::launch_yours, "tma_transpose_kernel", "TMA transpose (yours)", kMeasurementFile,
      grader::chapter::threshold("speedup_over_naive"),
      "the counters check shows whether the reads conflict; kStages tiles must be in flight "
      "at a time.",
      {ch11::kBoxRows, 4});
  GRADER_EXPECT(!problem, *problem);
}
