// Chapter 11: what is wrong with your tma_transpose_kernel, for the GPU checks of exercise 3b
// (gpu_checks.cpp): a refused map; then the kernel run as shipped, in the stress run and on the
// correctness shapes, each finding in words.
#include "grader/11_tma_layouts/transpose_diagnosis.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/tma_map.hpp"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/subject_link.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace ch11::diagnosis {

namespace {

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

}  // namespace

namespace {

grader::Feedback refused(const std::string& why) {
  return grader::Feedback("Your tensor map was refused, so the kernel never ran.")
      .line(why)
      .hint("make_input_map must describe boxes the TMA can write in the mode you chose.");
}

}  // namespace

std::optional<grader::Feedback> maps_refused() {
  gpu::DeviceBuffer<float> in(64 * 64), out(64 * 64);
  try {
    (void)ch11::make_input_map(in.get(), 64, 64);
    (void)ch11::make_output_map(out.get(), 64, 64);
  } catch (const gpu::TmaMapError& e) {  // the exercise linked in (the maintainers' grader)
    return refused(e.what());
  } catch (const grader::subject::Fault& e) {  // the judge: the encoder threw in the subject
    if (e.thrown_type() != typeid(gpu::TmaMapError).name()) throw;
    return refused(e.thrown_message());
  }
  return std::nullopt;
}

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

}  // namespace ch11::diagnosis
