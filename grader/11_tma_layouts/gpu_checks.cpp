// Chapter 11 GPU checks: tma_smem_offset against the layouts the TMA itself writes; the
// predictions against the counters, on the boxes as the TMA lays them out; tma_transpose_kernel's
// results, counted shared accesses and speed against the naive transpose and the device copy,
// measured in the same run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/tma_map.hpp"
#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"
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

// Whether your kernel writes anything at all: as shipped it does not (steps 1-7 are yours).
bool writes_nothing() {
  constexpr int side = 2 * ch11::kBoxRows;
  gpu::DeviceBuffer<float> in(side * side), out(side * side);
  in.fill_bytes(0x3f);
  out.fill_bytes(0xff);  // NaN
  ch11::probes::launch_yours(in.get(), out.get(), side, side);
  GPU_CHECK_KERNEL("tma_transpose_kernel");
  const std::vector<float> got = out.download();
  return std::all_of(got.begin(), got.end(), [](float x) { return x != x; });
}

// What a TMA pipeline's slips do depends on when its warps run and its loads land, which depends
// on the GPU, its size and its load: a wrong parity crashed the kernel on the full H200 and was
// reported otherwise on slices of it. Every message of the transpose's correctness check
// therefore names the slips that could have caused it, and ends with the same hint, whichever
// way a slip shows.
const char* const kPipelineHint =
    "steps 2-6: the bytes one tile brings (both boxes, zeros past the edge included), which "
    "parity each load of a stage completes, a wait before any thread reads a stage, and a "
    "barrier between the last read of a stage and its next load.";

// The slips behind wrong elements that come from the pipeline's timing, not from its indices.
const char* const kTimingSlips =
    "In a TMA pipeline wrong elements can also come from its timing: a stage read before its "
    "tile has landed (no wait, a parity that does not follow the stage's loads, or bytes "
    "announced with mbarrier_arrive_expect_tx that are not the tile's), a stage "
    "loaded again before every thread had read it, or an output tile written before its "
    "store had read it.";

// The stress run: one block on 2 kStages tiles, so that every stage is loaded twice whatever
// the GPU's size, its shared memory poisoned before each launch, and its warps held after each
// wait (ptx::mbarrier_wait, during this run only), each warp for a different time.
constexpr int kStressRows = 4 * ch11::kBoxRows;   // 4 tile rows
constexpr int kStressCols = 2 * ch11::kTileCols;  // 2 tile columns: 8 tiles
constexpr int kStressTiles = (kStressRows / ch11::kBoxRows) * (kStressCols / ch11::kTileCols);
static_assert(kStressTiles == 2 * ch11::kStages, "the stress run loads every stage twice");
// The step of the holds: a warp leaves a wait up to 7 steps (56 us) after the first one, far
// longer than a tile takes to land in a block that runs alone (a few microseconds).
constexpr unsigned kHoldStepNs = 8000;
constexpr int kStressLaunches = 3;

// Holds the warps after each wait while it lives (released when the launch throws too).
struct WarpsHeld {
  WarpsHeld() { ch11::probes::hold_warps_after_waits(kHoldStepNs); }
  ~WarpsHeld() { ch11::probes::hold_warps_after_waits(0); }
  WarpsHeld(const WarpsHeld&) = delete;
  WarpsHeld& operator=(const WarpsHeld&) = delete;
};

struct StressFinding {
  grader::Feedback feedback;
  bool from_the_pipeline;  // most wrong elements hold another tile of their stage, or the poison
};

unsigned bits_of(float x) {
  unsigned u = 0;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// Your kernel in the stress run. Nothing when every launch is exact, or when a wait gave up (the
// caller reports that). A crash throws, as in the other runs.
std::optional<StressFinding> stress_problem(std::uint64_t seed) {
  constexpr int rows = kStressRows, cols = kStressCols, tiles_y = rows / ch11::kBoxRows;
  // Tile of element (r, c) of `in`, numbered down the columns of tiles as the contract does:
  // with one block, the block's i-th tile is tile i, in stage i % kStages.
  const auto tile_of = [](int r, int c) {
    return c / ch11::kTileCols * tiles_y + r / ch11::kBoxRows;
  };
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int launch = 1; launch <= kStressLaunches; ++launch) {
    std::vector<float> host(static_cast<size_t>(rows) * cols);
    for (float& x : host) x = uniform(rng);
    std::unordered_map<unsigned, int> where;  // bits -> index in `in`, to name a wrong value
    for (int k = 0; k < static_cast<int>(host.size()); ++k) where.emplace(bits_of(host[k]), k);
    gpu::DeviceBuffer<float> in(host);
    gpu::DeviceBuffer<float> out(host.size());
    out.fill_bytes(0xff);  // NaN
    ch11::probes::poison_shared_memory();
    {
      const WarpsHeld held;
      ch11::probes::launch_yours_on(in.get(), out.get(), rows, cols, 1);
      GPU_CHECK_KERNEL("tma_transpose_kernel");
    }
    if (ch11::probes::wait_that_gave_up()) return std::nullopt;
    const std::vector<float> got = out.download();
    // Every wrong element, by where its value comes from.
    enum Kind { kNext, kBefore, kPoison, kUnwritten, kSameTile, kOtherTile, kUnknown, kKinds };
    int count[kKinds] = {};
    int first_r[kKinds] = {}, first_c[kKinds] = {}, first_source[kKinds] = {};
    for (int c = 0; c < cols; ++c) {
      for (int r = 0; r < rows; ++r) {
        const float want = host[static_cast<size_t>(r) * cols + c];
        const float have = got[static_cast<size_t>(c) * rows + r];
        if (bits_of(have) == bits_of(want)) continue;
        const int tile = tile_of(r, c);
        const auto found = where.find(bits_of(have));
        int kind = kUnknown, source = -1;
        if (bits_of(have) == ch11::probes::kSharedPoison) {
          kind = kPoison;
        } else if (bits_of(have) == 0xffffffffu) {
          kind = kUnwritten;
        } else if (found != where.end()) {
          source = found->second;
          const int from = tile_of(source / cols, source % cols);
          kind = from == tile + ch11::kStages   ? kNext
                 : from == tile - ch11::kStages ? kBefore
                 : from == tile                 ? kSameTile
                                                : kOtherTile;
        }
        if (count[kind]++ == 0) first_r[kind] = r, first_c[kind] = c, first_source[kind] = source;
      }
    }
    // The kind most wrong elements are of (the pipeline's kinds first where counts tie), shown
    // by its first element: a wrong layout puts a few elements of other tiles among many of
    // its own, and those few say nothing of the pipeline.
    int shown_kind = kKinds;
    for (int kind = 0; kind < kKinds; ++kind) {
      if (count[kind] > 0 && (shown_kind == kKinds || count[kind] > count[shown_kind])) {
        shown_kind = kind;
      }
    }
    if (shown_kind == kKinds) continue;  // this launch was exact
    const int r = first_r[shown_kind], c = first_c[shown_kind];
    const int shown_source = first_source[shown_kind];
    const int tile = tile_of(r, c), stage = tile % ch11::kStages;
    const float want = host[static_cast<size_t>(r) * cols + c];
    const float have = got[static_cast<size_t>(c) * rows + r];
    const std::string at = "stage " + std::to_string(stage);
    grader::Feedback f("tma_transpose_kernel on a " + std::to_string(rows) + " x " +
                       std::to_string(cols) + " matrix in one block (" +
                       std::to_string(kStressTiles) +
                       " tiles: every stage is loaded twice), its warps held after each wait "
                       "(the stress run, launch " +
                       std::to_string(launch) + " of " + std::to_string(kStressLaunches) +
                       "): out[" + std::to_string(c) + "][" + std::to_string(r) + "] is " +
                       std::to_string(have) + ", expected in[" + std::to_string(r) + "][" +
                       std::to_string(c) + "] = " + std::to_string(want) + ".");
    const std::string source = shown_source < 0
                                   ? ""
                                   : "in[" + std::to_string(shown_source / cols) + "][" +
                                         std::to_string(shown_source % cols) + "]";
    switch (shown_kind) {
      case kNext:
        f.line("That value is " + source + ", of tile " + std::to_string(tile + ch11::kStages) +
               ", the tile the block loads next into " + at + ", after tile " +
               std::to_string(tile) + ": " + at +
               " was loaded again before every thread had read it.");
        break;
      case kBefore:
        f.line("That value is " + source + ", of tile " + std::to_string(tile - ch11::kStages) +
               ", which " + at + " held before tile " + std::to_string(tile) +
               ": a thread read the stage before tile " + std::to_string(tile) +
               " had landed (no wait, or a wait for a phase that had already completed: a "
               "parity that does not follow the stage's loads).");
        break;
      case kPoison:
        f.line(
            "That value is the poison the grader put in shared memory before the launch: a "
            "thread read " +
            at + " before tile " + std::to_string(tile) +
            " had landed in it (no wait, or a wait for a phase that had already completed: "
            "a parity that does not follow the stage's loads).");
        break;
      case kUnwritten:
        f.line("That element was never written (it still holds the NaN poison).");
        break;
      case kSameTile:
        f.line("That value is " + source +
               ", of the same tile, elsewhere: the indices or the "
               "layout the stage is read in, not the pipeline's timing.");
        break;
      case kOtherTile: f.line("That value is " + source + ", of another tile."); break;
      default: break;
    }
    char counts[400];
    std::snprintf(counts, sizeof counts,
                  "Wrong elements: %d hold the tile loaded next into their stage, %d the tile "
                  "their stage held before, %d the shared-memory poison, %d were never written, "
                  "%d hold another element of their own tile, %d of another tile, %d another "
                  "value.",
                  count[kNext], count[kBefore], count[kPoison], count[kUnwritten], count[kSameTile],
                  count[kOtherTile], count[kUnknown]);
    f.line(counts);
    f.line("In this run each warp is held for a different time after each mbarrier wait (up to " +
           std::to_string(7 * kHoldStepNs / 1000) +
           " us, in an order that changes from stage to stage), as warps may be on a busy GPU: a "
           "pipeline that keeps the contract gives the same results however its warps are "
           "held.");
    f.line(kTimingSlips);
    f.hint(kPipelineHint);
    const bool from_the_pipeline =
        shown_kind == kNext || shown_kind == kBefore || shown_kind == kPoison;
    return StressFinding{f, from_the_pipeline};
  }
  return std::nullopt;
}

// Your kernel on the correctness shapes, after the stress run. A wait that gave up is reported
// first, as such (the wrong results follow from it); a kernel that writes nothing, as not
// written yet. Once a wait has given up, every later wait of the process gives up at once
// (ptx::mbarrier_wait), so nothing more is run: what would run then says nothing of the kernel.
std::optional<grader::Feedback> transpose_problem() {
  ch11::probes::forget_waits_that_gave_up();
  bool nothing = false;
  std::optional<StressFinding> stress;
  std::optional<grader::Feedback> problem;
  try {
    nothing = writes_nothing();
    if (!nothing && !ch11::probes::wait_that_gave_up()) {
      stress = stress_problem(grader::run_seed() ^ 0x57e55u);
      if (!ch11::probes::wait_that_gave_up()) {
        problem = transpose::check_correct(ch11::probes::launch_yours, "tma_transpose_kernel",
                                           grader::run_seed(), {ch11::kBoxRows, 4});
      }
    }
  } catch (const gpu::CudaError& e) {
    if (!e.sticky()) throw;
    return grader::Feedback(std::string(e.what()) + ".")
        .line(
            "Where no access is out of bounds, this kernel crashes when an mbarrier is used "
            "out of step with its loads: on the H200, bytes announced with "
            "mbarrier_arrive_expect_tx that are not the tile's (too few, or too many), a "
            "parity that does not follow the stage's loads, and no wait at all each crashed "
            "it so (an arrival, or the TMA's bytes, landing on a phase that no longer "
            "expects them).")
        .line(
            "Whether such a slip crashes the kernel, leaves a wait that never completes or "
            "gives wrong elements depends on when the loads land, which depends on the GPU "
            "and its load: the grader reports whichever it meets first.")
        .hint(std::string(kPipelineHint) +
              " The GPU context is lost, so the GPU checks after this one do not run.");
  }
  if (const auto gave_up = ch11::probes::wait_that_gave_up()) {
    grader::Feedback f(
        "tma_transpose_kernel waits on an mbarrier for a phase that never "
        "completes (the wait gave up, so that the checks could go on).");
    f.line(*gave_up);
    f.line(
        "A phase completes once all the arrivals mbarrier_init asked for have arrived and all "
        "the bytes they announced with mbarrier_arrive_expect_tx have landed. With bytes "
        "announced with mbarrier_arrive_expect_tx that are not the tile's, a phase waits for "
        "bytes that never come (too many), or completes early and the rest of the tile lands on "
        "the next phase (too few).");
    f.line(
        "On a stage loaded more than once, a wait also never completes when it asks for a "
        "phase the stage's loads have passed: its u-th load completes the phase of parity "
        "u % 2, so a wait for parity 0 once the phases of parity 0 and 1 have both completed "
        "waits for a third load that may never come (a parity that does not follow the "
        "stage's loads); and a warp that reaches its wait only after the stage was loaded "
        "again waits so too (a stage loaded again before every thread had read it).");
    if (stress) f.line("Its results are wrong too, which follows: " + stress->feedback.headline());
    if (problem) f.line("Its results are wrong too, which follows: " + problem->headline());
    return f.hint(std::string("step 1: how many threads arrive on a stage's mbarrier per "
                              "phase; ") +
                  kPipelineHint);
  }
  if (nothing) {
    return grader::Feedback(
               "tma_transpose_kernel writes nothing to `out`: its pipeline (steps "
               "1-7 of the skeleton) is not written yet.")
        .hint(
            "section 5 of the lesson walks through the steps; the contract is in "
            "tma_layouts.cuh.");
  }
  // Wrong elements the pipeline's timing explains come first; then the shapes' (a wrong index
  // or layout shows on the smallest); then the stress run's others.
  if (stress && stress->from_the_pipeline) return stress->feedback;
  if (problem) return problem->line(kTimingSlips).hint(kPipelineHint);
  if (stress) return stress->feedback;
  return std::nullopt;
}

}  // namespace

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
      const int predicted = ch11::predicted_column_wavefronts(mode, read);
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
    GRADER_EXPECT(false, grader::Feedback("Not counted: predicted_padded_column_wavefronts() is "
                                          "counted once least_padded_pitch() is right.")
                             .hint("finish exercise 2b (see the host checks) first."));
  } else {
    asked.push_back(
        {"predicted_padded_column_wavefronts()",
         "a warp reading float 0 of 32 rows at your pitch of " + std::to_string(pitch) + " floats",
         "counted.padded_column", ch11::predicted_padded_column_wavefronts(), ""});
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
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  const auto problem = transpose_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3b_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  if (transpose_problem()) {
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
  const gpu::SmemCounters got = gpu::measure_smem_counters([&] {
    ch11::probes::launch_yours_on(in.get(), out.get(), rows, cols, tiles);
    GPU_CHECK(cudaGetLastError());
  });
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
                    .hint("each thread reads 4 float4 chunks of each tile and writes 4 float4 "
                          "chunks of the output tile; nothing else touches shared memory but "
                          "the TMA."));
  GRADER_EXPECT(got.load_wavefronts <= ideal && got.store_wavefronts <= ideal,
                grader::Feedback("The GPU counted more shared-memory wavefronts in your kernel "
                                 "than its accesses need.")
                    .line(counted)
                    .hint("read the box through tma_smem_offset in a mode where each group of 8 "
                          "lanes finds its 8 chunks in 8 different bank quads."));
}

WORKBOOK_CHECK(ex3b_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_SM90();
  if (const auto refused = maps_refused()) GRADER_FAIL(*refused);
  if (transpose_problem()) {
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
