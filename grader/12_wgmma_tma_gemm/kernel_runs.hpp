// Chapter 12: whether wgmma_gemm_kernel may run (its descriptors and C tile in place), and its
// results on small integers, exact in fp32, in every layout and ring length (grader/gemm/).
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/cuda/cuda_check.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"
#include "grader/gemm/gemm_bench.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/random_seed.hpp"

namespace ch12::runs {

// The kernel's descriptors must point into their tiles before it runs (wgmma would read shared
// memory out of place): the reason it does not run yet, or nothing. Every case the kernel uses:
// A's 128 rows from row 0 and 64, B's 256 rows from row 0, k16 0 .. 3, in every layout.
inline std::optional<grader::Feedback> descriptors_out_of_place() {
  for (OperandLayout layout : kOperandLayouts) {
    for (const auto& [rows, row0] : {std::pair<int, int>{128, 0}, {128, 64}, {256, 0}}) {
      for (int k16 = 0; k16 < 4; ++k16) {
        const unsigned tile = 0x8000;
        const DescriptorFields f =
            decode_descriptor(wgmma_descriptor(layout, tile, rows, k16, row0));
        if (f.start_address >= tile && f.start_address < tile + rows * kKTileBytes &&
            f.layout == layout)
          continue;
        return grader::Feedback("Not run: " + spec::call_text({layout, tile, rows, k16, row0}) +
                                " has start address " + spec::hex(f.start_address) +
                                " and layout type " + std::to_string(static_cast<int>(f.layout)) +
                                ": wgmma would read outside the tile, or in another layout.")
            .hint(
                "exercise 1 (its host check says more): the start address lies inside the "
                "tile, and the layout type is the tile's.");
      }
    }
  }
  return std::nullopt;
}

// The C tile's pitch must fit the stages' memory before the kernel runs.
inline std::optional<grader::Feedback> pitch_out_of_range() {
  const int pitch = c_tile_pitch();
  if (pitch >= kBlockN && pitch <= kMaxCTilePitch && pitch % 4 == 0) return std::nullopt;
  return grader::Feedback("Not run: c_tile_pitch() is " + std::to_string(pitch) +
                          "; the kernel's C tile needs a multiple of 4 from " +
                          std::to_string(kBlockN) + " to " + std::to_string(kMaxCTilePitch) +
                          " floats (it reuses the stages' memory).")
      .hint("exercise 2b.");
}

inline std::optional<grader::Feedback> not_runnable() {
  if (auto f = descriptors_out_of_place()) return f;
  return pitch_out_of_range();
}

// A problem of small integers (gemm::small_integer_problem) and its exact result.
struct ExactProblem {
  gemm::Problem<__half> p;
  std::vector<gemm::Exact> C;
};

inline ExactProblem exact_problem(int M, int N, int K, std::mt19937_64& rng) {
  ExactProblem e{gemm::small_integer_problem<__half>(gemm::Operands::kABt, M, N, K, rng), {}};
  e.C = gemm::exact_result(e.p);
  return e;
}

inline const char* const kPipelineHint =
    "steps 1 and 2 of the kernel: the producer waits on empty[s] for the consumers' release of "
    "the stage's previous K-tile, announces the stage's bytes on full[s], then loads A's and B's "
    "K-tiles; each consumer warpgroup waits on full[s], issues its four wgmma, commits, and "
    "releases a stage only once wgmma_wait says the ops that read it are done.";

struct RunResult {
  bool gave_up = false;
  bool nothing = false;                 // not one element of C written
  std::optional<gemm::Mismatch> wrong;  // the first wrong element, and how many are
};

// Runs your kernel on p (C poisoned with NaN, shared memory with NaN) and compares every element.
inline RunResult run_exact(const ExactProblem& e, OperandLayout layout, int stages) {
  const std::vector<float> got = gemm::run(
      [&](const __half* A, const __half* B, float* C, int M, int N, int K) {
        probes::launch_yours_on_poisoned_shared(layout, A, B, C, M, N, K, stages);
      },
      e.p, "wgmma_gemm_kernel");
  RunResult r;
  if (probes::wait_that_gave_up()) {
    r.gave_up = true;
    return r;
  }
  r.nothing = std::all_of(got.begin(), got.end(), [](float x) { return std::isnan(x); });
  r.wrong = gemm::first_mismatch(e.C, e.p.N, got, {}, nullptr, true);
  return r;
}

// Your kernel on the exact shapes, in every layout and ring length: the first problem, or
// nothing. A crash, a wait that gave up and a kernel that writes nothing are reported as such.
inline std::optional<grader::Feedback> gemm_problem() {
  std::mt19937_64 rng(grader::run_seed() + 120);
  // K = 200 and 1000 end in a partial K-tile (the TMA reads zeros past K).
  const std::vector<ExactProblem> problems = {exact_problem(128, 256, 64, rng),
                                              exact_problem(256, 512, 200, rng),
                                              exact_problem(384, 256, 1000, rng)};
  struct Run {
    OperandLayout layout;
    int stages;
  };
  std::vector<Run> runs;
  for (OperandLayout layout : kOperandLayouts) runs.push_back({layout, kStages});
  for (int stages = 2; stages < kStages; ++stages) runs.push_back({OperandLayout::k128B, stages});
  probes::forget_waits_that_gave_up();
  try {
    for (const ExactProblem& problem : problems) {
      const gemm::Problem<__half>& p = problem.p;
      for (const Run& run : runs) {
        const RunResult r = run_exact(problem, run.layout, run.stages);
        const std::string where = "wgmma_gemm_kernel<" + std::string(spec::name(run.layout)) +
                                  "> with a ring of " + std::to_string(run.stages) + " stages on " +
                                  gemm::shape(p) + " (M x N x K)";
        if (r.gave_up) {
          return grader::Feedback(where +
                                  " waits on an mbarrier for a phase that never "
                                  "completes (the wait gave up, so that the checks "
                                  "could go on).")
              .line(*probes::wait_that_gave_up())
              .line(
                  "A phase of full[s] completes on the producer's one arrival and all the "
                  "bytes it announced with mbarrier_arrive_expect_tx (the whole stage, A's and "
                  "B's K-tiles, zeros past K included); a phase of empty[s] on one arrival of "
                  "each consumer warpgroup. The u-th use of a stage completes the phase of "
                  "parity u % 2: a wait for another parity, too few arrivals or bytes that "
                  "never come leave a wait that never completes.")
              .hint(kPipelineHint);
        }
        if (r.nothing) {
          return grader::Feedback(
                     "wgmma_gemm_kernel writes nothing to C: its steps 1-3 (the producer's loop, "
                     "the consumers' k-loop, the epilogue) are not written yet.")
              .hint(
                  "section 3 of the lesson walks through the pipeline; the contract is in "
                  "wgmma_tma_gemm.cuh.");
        }
        if (!r.wrong) continue;
        const gemm::Mismatch& first = *r.wrong;
        char line[240];
        std::snprintf(line, sizeof line,
                      "%lld of its %zu elements are wrong; the first, C[%d][%d], is %.9g where "
                      "the exact value is %.9g.",
                      first.count, static_cast<std::size_t>(p.M) * p.N, first.i, first.j,
                      static_cast<double>(first.got), first.exact);
        grader::Feedback f(where + " is wrong.");
        f.line(line);
        f.line(
            "The inputs are small integers, so every element is exact in fp32: any "
            "difference is a wrong element.");
        if (std::isnan(first.got)) {
          f.line(
              "That element is NaN: never written (C was filled with NaN), or computed from "
              "a stage read before its bytes landed (the grader fills shared memory with NaN "
              "first).");
        }
        if (run.layout != OperandLayout::k128B) {
          f.line("k128B was right on this shape: what differs in " +
                 std::string(spec::name(run.layout)) +
                 " is the descriptor (exercise 1) and the number of boxes per K-tile.");
        } else if (run.stages != kStages) {
          f.line(
              "The longest ring was right: with fewer stages a stage is loaded again sooner, "
              "so a stage released before the wgmma ops that read it are done, or a parity "
              "out of step, shows here.");
        }
        return f.hint(kPipelineHint);
      }
    }
  } catch (const gpu::CudaError& e) {
    if (!e.sticky()) throw;
    return grader::Feedback(std::string(e.what()) + ".")
        .line(
            "A descriptor whose byte offsets lead outside shared memory, an mbarrier used out "
            "of step with its loads (bytes announced with mbarrier_arrive_expect_tx that are "
            "not the stage's, a parity that does not follow the stage's uses) and a C tile "
            "indexed past its rows each crash a kernel so.")
        .hint(std::string(kPipelineHint) +
              " The GPU context is lost, so the GPU checks after this one do not run.");
  }
  return std::nullopt;
}

// The quick check that gates the counters' and the speed's points.
inline bool wrong_on_a_quick_problem() {
  std::mt19937_64 rng(grader::run_seed() + 121);
  const ExactProblem e = exact_problem(256, 512, 256, rng);
  probes::forget_waits_that_gave_up();
  const RunResult r = run_exact(e, OperandLayout::k128B, kStages);
  return r.gave_up || r.wrong;
}

}  // namespace ch12::runs
