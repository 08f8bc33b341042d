// Chapter 12 GPU checks: your descriptors and the pairings through wgmma itself; the epilogue's
// stores through the counters; wgmma_gemm_kernel exact on small shapes in every layout and ring
// length, against cuBLAS on 4096^3, its shared stores and loads counted, and its speed against
// the grader's baseline, with cuBLAS and the four layouts side by side.
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch12::OperandLayout;
using grader::chapter::kMeasurementFile;

// wgmma needs sm_90a code: elsewhere (an older GPU, Blackwell) the GPU checks skip, saying why.
#define NEEDS_WGMMA()                                                                      \
  do {                                                                                     \
    if (const auto why_not_ = ch12::probes::no_wgmma_here()) GRADER_SKIP(*why_not_ + "."); \
  } while (0)

const char* name(OperandLayout layout) {
  switch (layout) {
    case OperandLayout::k128B: return "k128B";
    case OperandLayout::k64B: return "k64B";
    case OperandLayout::k32B: return "k32B";
    case OperandLayout::kInterleave: return "kInterleave";
  }
  return "?";
}

// The measurement name of a layout: "sw128", "sw64", "sw32", "interleave".
const char* key(OperandLayout layout) {
  switch (layout) {
    case OperandLayout::k128B: return "sw128";
    case OperandLayout::k64B: return "sw64";
    case OperandLayout::k32B: return "sw32";
    case OperandLayout::kInterleave: return "interleave";
  }
  return "?";
}

const char* pairing_name(ch12::Pairing p) {
  switch (p) {
    case ch12::Pairing::kSW128ReadAsSW64: return "kSW128ReadAsSW64";
    case ch12::Pairing::kSW128WithSbo128: return "kSW128WithSbo128";
    case ch12::Pairing::kSW128StepOf32Bytes: return "kSW128StepOf32Bytes";
    case ch12::Pairing::kSW128At128BaseOffset0: return "kSW128At128BaseOffset0";
    case ch12::Pairing::kSW64WithSbo1024: return "kSW64WithSbo1024";
    case ch12::Pairing::kSW32StepOf32Bytes: return "kSW32StepOf32Bytes";
    case ch12::Pairing::kInterleaveLboSboSwapped: return "kInterleaveLboSboSwapped";
    case ch12::Pairing::kInterleaveGapOf16Bytes: return "kInterleaveGapOf16Bytes";
    case ch12::Pairing::kPaddedBRowsAsInterleave: return "kPaddedBRowsAsInterleave";
  }
  return "?";
}

// The kernel's descriptors must point into their tiles before it runs (wgmma would read shared
// memory out of place): the reason it does not run yet, or nothing. Every case the kernel uses:
// A's 128 rows from row 0 and 64, B's 256 rows from row 0, k16 0 .. 3, in every layout.
std::optional<grader::Feedback> descriptors_out_of_place() {
  for (OperandLayout layout : ch12::kOperandLayouts) {
    for (const auto& [rows, row0] : {std::pair<int, int>{128, 0}, {128, 64}, {256, 0}}) {
      for (int k16 = 0; k16 < 4; ++k16) {
        const unsigned tile = 0x8000;
        const ch12::DescriptorFields f =
            ch12::decode_descriptor(ch12::wgmma_descriptor(layout, tile, rows, k16, row0));
        if (f.start_address >= tile && f.start_address < tile + rows * ch12::kKTileBytes &&
            f.layout == layout)
          continue;
        char call[160];
        std::snprintf(call, sizeof call, "wgmma_descriptor(%s, 0x%x, %d, %d, %d)", name(layout),
                      tile, rows, k16, row0);
        return grader::Feedback(std::string("Not run: ") + call + " has start address 0x" +
                                [&] {
                                  char hex[16];
                                  std::snprintf(hex, sizeof hex, "%x", f.start_address);
                                  return std::string(hex);
                                }() +
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
std::optional<grader::Feedback> pitch_out_of_range() {
  const int pitch = ch12::c_tile_pitch();
  if (pitch >= ch12::kBlockN && pitch <= ch12::kMaxCTilePitch && pitch % 4 == 0)
    return std::nullopt;
  return grader::Feedback("Not run: c_tile_pitch() is " + std::to_string(pitch) +
                          "; the kernel's C tile needs a multiple of 4 from " +
                          std::to_string(ch12::kBlockN) + " to " +
                          std::to_string(ch12::kMaxCTilePitch) +
                          " floats (it reuses the stages' memory).")
      .hint("exercise 2b.");
}

std::optional<grader::Feedback> not_runnable() {
  if (auto f = descriptors_out_of_place()) return f;
  return pitch_out_of_range();
}

// Small integers in fp16: every product and every sum of the checks' shapes is exact in fp32,
// so C must equal the exact product, element for element.
std::vector<__half> small_integers(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-4, 4);
  std::vector<__half> v(n);
  for (__half& x : v) x = __float2half(static_cast<float>(value(rng)));
  return v;
}

struct ExactProblem {
  int M, N, K;
  std::vector<__half> A, B;
  std::vector<float> C;  // exact
};

ExactProblem exact_problem(int M, int N, int K, std::mt19937_64& rng) {
  ExactProblem p{M,
                 N,
                 K,
                 small_integers(static_cast<std::size_t>(M) * K, rng),
                 small_integers(static_cast<std::size_t>(N) * K, rng),
                 {}};
  std::vector<float> a(p.A.size()), b(p.B.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = __half2float(p.A[i]);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = __half2float(p.B[i]);
  p.C.resize(static_cast<std::size_t>(M) * N);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float sum = 0;
      const float* x = &a[static_cast<std::size_t>(i) * K];
      const float* y = &b[static_cast<std::size_t>(j) * K];
      for (int k = 0; k < K; ++k) sum += x[k] * y[k];
      p.C[static_cast<std::size_t>(i) * N + j] = sum;
    }
  }
  return p;
}

std::string shape(int M, int N, int K) {
  return std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K);
}

const char* const kPipelineHint =
    "steps 1 and 2 of the kernel: the producer waits on empty[s] for the consumers' release of "
    "the stage's previous K-tile, announces the stage's bytes on full[s], then loads A's and B's "
    "K-tiles; each consumer warpgroup waits on full[s], issues its four wgmma, commits, and "
    "releases a stage only once wgmma_wait says the ops that read it are done.";

struct RunResult {
  bool gave_up = false;
  bool nothing = false;  // not one element of C written
  long long wrong = 0;
  int first_i = 0, first_j = 0;
  float first_got = 0, first_want = 0;
};

// Runs your kernel on p (C poisoned with NaN, shared memory with NaN) and compares every element.
RunResult run_exact(const ExactProblem& p, OperandLayout layout, int stages) {
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(p.C.size());
  c.fill_bytes(0xff);
  ch12::probes::launch_yours_on_poisoned_shared(layout, a.get(), b.get(), c.get(), p.M, p.N, p.K,
                                                stages);
  GPU_CHECK_KERNEL("wgmma_gemm_kernel");
  RunResult r;
  if (ch12::probes::wait_that_gave_up()) {
    r.gave_up = true;
    return r;
  }
  const std::vector<float> got = c.download();
  long long written = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    written += !std::isnan(got[e]);
    if (got[e] == p.C[e]) continue;
    if (r.wrong++ == 0) {
      r.first_i = static_cast<int>(e / static_cast<std::size_t>(p.N));
      r.first_j = static_cast<int>(e % static_cast<std::size_t>(p.N));
      r.first_got = got[e], r.first_want = p.C[e];
    }
  }
  r.nothing = written == 0;
  return r;
}

// Your kernel on the exact shapes, in every layout and ring length: the first problem, or
// nothing. A crash, a wait that gave up and a kernel that writes nothing are reported as such.
std::optional<grader::Feedback> gemm_problem() {
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
  for (OperandLayout layout : ch12::kOperandLayouts) runs.push_back({layout, ch12::kStages});
  for (int stages = 2; stages < ch12::kStages; ++stages)
    runs.push_back({OperandLayout::k128B, stages});
  ch12::probes::forget_waits_that_gave_up();
  try {
    for (const ExactProblem& p : problems) {
      for (const Run& run : runs) {
        const RunResult r = run_exact(p, run.layout, run.stages);
        const std::string where = "wgmma_gemm_kernel<" + std::string(name(run.layout)) +
                                  "> with a ring of " + std::to_string(run.stages) + " stages on " +
                                  shape(p.M, p.N, p.K) + " (M x N x K)";
        if (r.gave_up) {
          return grader::Feedback(where +
                                  " waits on an mbarrier for a phase that never "
                                  "completes (the wait gave up, so that the checks "
                                  "could go on).")
              .line(*ch12::probes::wait_that_gave_up())
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
        if (r.wrong == 0) continue;
        char line[240];
        std::snprintf(line, sizeof line,
                      "%lld of its %zu elements are wrong; the first, C[%d][%d], is %.9g where "
                      "the exact value is %.9g.",
                      r.wrong, p.C.size(), r.first_i, r.first_j, static_cast<double>(r.first_got),
                      static_cast<double>(r.first_want));
        grader::Feedback f(where + " is wrong.");
        f.line(line);
        f.line(
            "The inputs are small integers, so every element is exact in fp32: any "
            "difference is a wrong element.");
        if (std::isnan(r.first_got)) {
          f.line(
              "That element is NaN: never written (C was filled with NaN), or computed from "
              "a stage read before its bytes landed (the grader fills shared memory with NaN "
              "first).");
        }
        if (run.layout != OperandLayout::k128B) {
          f.line("k128B was right on this shape: what differs in " + std::string(name(run.layout)) +
                 " is the descriptor (exercise 1) and the number of boxes per K-tile.");
        } else if (run.stages != ch12::kStages) {
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
bool wrong_on_a_quick_problem() {
  std::mt19937_64 rng(grader::run_seed() + 121);
  const ExactProblem p = exact_problem(256, 512, 256, rng);
  ch12::probes::forget_waits_that_gave_up();
  const RunResult r = run_exact(p, OperandLayout::k128B, ch12::kStages);
  return r.gave_up || r.wrong > 0;
}

}  // namespace

WORKBOOK_CHECK(ex1_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  for (OperandLayout layout : ch12::kOperandLayouts) {
    const int wrong =
        ch12::probes::wrong_elements_with_your_descriptors(layout, grader::run_seed() + 7);
    grader::record_measurement(kMeasurementFile,
                               std::string("descriptor.") + key(layout) + ".wrong_elements", wrong,
                               "elements");
    GRADER_EXPECT(wrong == 0,
                  grader::Feedback(
                      wrong < 0 ? "Not run in " + std::string(name(layout)) +
                                      ": your descriptor's start address lies outside the tile."
                                : "wgmma, reading K-tiles laid out as the TMA writes them in " +
                                      std::string(name(layout)) +
                                      " (A's 64 rows, B's 256) through your "
                                      "wgmma_descriptor for each k16 step, got " +
                                      std::to_string(wrong) + " of the 16384 elements of C wrong.")
                      .hint("exercise 1; its host check names the field that differs."));
  }
}

WORKBOOK_CHECK(ex2a_gpu) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  // The pairings change one field of your own descriptors: run once they read every layout.
  for (OperandLayout layout : ch12::kOperandLayouts) {
    if (ch12::probes::wrong_elements_with_your_descriptors(layout, grader::run_seed() + 8) != 0) {
      GRADER_FAIL(grader::Feedback(
                      "Not run: the pairings start from your own descriptors, which wgmma does "
                      "not read right yet in " +
                      std::string(name(layout)) + ".")
                      .hint("finish exercise 1 first (see the check above)."));
    }
  }
  for (ch12::Pairing pairing : ch12::kPairings) {
    const int wrong = ch12::probes::wrong_elements_of_pairing(
        pairing, static_cast<unsigned>(grader::run_seed()) + 9);
    const int reads_right = wrong == 0 ? 1 : 0;
    grader::record_measurement(kMeasurementFile,
                               std::string("pairing.") + pairing_name(pairing) + ".wrong_elements",
                               wrong, "elements");
    const int predicted = ch12::predicted_reads_right(pairing);
    GRADER_EXPECT(
        predicted == reads_right,
        grader::Feedback(std::string("The GPU ran ") + pairing_name(pairing) +
                         ", and your prediction (" +
                         (predicted == ch12::kNotImplemented ? std::string("not filled in")
                                                             : std::to_string(predicted)) +
                         ") is not what it did.")
            .reveal("wgmma got " + std::to_string(wrong) + " of the 16384 elements of C wrong.")
            .hint("the interface says how each pairing writes and reads the tile; "
                  "work out where wgmma looks for the bytes of rows 0-15 at k16 step "
                  "1, and where the tile holds them."));
  }
}

WORKBOOK_CHECK(ex2c_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  std::vector<smem::WarpRequest> requests;
  std::vector<int> pitches;
  for (int n = 0; n < ch12::epilogue_pitches_asked(); ++n) {
    pitches.push_back(ch12::epilogue_pitch(n));
    requests.push_back(ch12::spec::epilogue_store(pitches.back()));
  }
  const std::vector<gpu::MeasuredAccess> measured =
      gpu::measure_warp_requests(requests, 8 * ch12::kMaxCTilePitch * 4 * 16);
  for (std::size_t n = 0; n < pitches.size(); ++n) {
    const int counted = measured[n].wavefronts;
    grader::record_measurement(kMeasurementFile,
                               "counted.epilogue.pitch" + std::to_string(pitches[n]), counted,
                               "wavefronts");
    const int predicted = ch12::predicted_epilogue_wavefronts(pitches[n]);
    GRADER_EXPECT(counted == predicted,
                  grader::Feedback("The GPU counted " + grader::more_or_fewer(counted, predicted) +
                                   " wavefronts than you predicted (" + std::to_string(predicted) +
                                   ") for a warp's 8-byte accumulator store at a pitch of " +
                                   std::to_string(pitches[n]) + " floats.")
                      .reveal("It counted " + grader::wavefronts(counted) + ":")
                      .reveal(grader::draw(requests[n])));
  }
}

WORKBOOK_CHECK(ex3_correct) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  const auto problem = gemm_problem();
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3_vs_cublas) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {
    GRADER_FAIL(grader::not_judged_while_wrong("Not compared",
                                               "wgmma_gemm_kernel gives wrong "
                                               "results"));
  }
  constexpr int n = 4096;
  constexpr std::size_t count = static_cast<std::size_t>(n) * n;
  std::mt19937_64 rng(grader::run_seed() + 122);
  const unsigned long long a_seed = rng(), b_seed = rng();
  gpu::DeviceBuffer<__half> a(count), b(count);
  ch12::probes::random_halves(a.get(), n * static_cast<long long>(n), a_seed);
  ch12::probes::random_halves(b.get(), n * static_cast<long long>(n), b_seed);
  gpu::DeviceBuffer<float> yours(count), cublas(count), magnitude(count);
  yours.fill_bytes(0xff);
  ch12::probes::forget_waits_that_gave_up();
  ch12::probes::launch_yours(OperandLayout::k128B, a.get(), b.get(), yours.get(), n, n, n);
  GPU_CHECK_KERNEL("wgmma_gemm_kernel");
  ch12::probes::cublas_gemm(a.get(), b.get(), cublas.get(), n, n, n);
  ch12::probes::absolute_values(a.get(), static_cast<long long>(a.size()));
  ch12::probes::absolute_values(b.get(), static_cast<long long>(b.size()));
  ch12::probes::cublas_gemm(a.get(), b.get(), magnitude.get(), n, n, n);
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<float> y = yours.download(), c = cublas.download(), m = magnitude.download();
  // fp32 accumulation: each result within K 2^-24 of the sum of the products' magnitudes of the
  // exact value (products of halves are exact in fp32); twice that between two results.
  const double unit = n * std::ldexp(1.0, -24);
  std::uniform_int_distribution<int> index(0, n - 1);
  double worst = 0;
  for (int sample = 0; sample < 256; ++sample) {
    const int i = index(rng), j = index(rng);
    double exact = 0, mag = 0;
    for (int k = 0; k < n; ++k) {
      const double product = static_cast<double>(__half2float(ch12::probes::random_half(
                                 a_seed, static_cast<unsigned long long>(i) * n + k))) *
                             __half2float(ch12::probes::random_half(
                                 b_seed, static_cast<unsigned long long>(j) * n + k));
      exact += product, mag += std::fabs(product);
    }
    const double got = c[static_cast<std::size_t>(i) * n + j];
    worst = std::max(worst, std::fabs(got - exact) / (unit * mag));
    if (!(std::fabs(got - exact) <= unit * mag)) {
      GRADER_FAIL(grader::Feedback("cuBLAS itself is not fp32-accurate here: C[" +
                                   std::to_string(i) + "][" + std::to_string(j) + "] = " +
                                   std::to_string(got) + ", exact " + std::to_string(exact) + ".")
                      .hint("is a cuBLAS math mode or environment variable forcing reduced "
                            "precision?"));
    }
  }
  grader::record_measurement(kMeasurementFile, "cublas.worst_error_in_tolerances", worst, "");
  for (std::size_t e = 0; e < y.size(); ++e) {
    if (std::fabs(static_cast<double>(y[e]) - c[e]) <= 2 * unit * m[e]) continue;
    char line[200];
    std::snprintf(line, sizeof line, "C[%zu][%zu] is %.9g; cuBLAS gives %.9g (tolerance %.3g).",
                  e / n, e % n, static_cast<double>(y[e]), static_cast<double>(c[e]),
                  2 * unit * m[e]);
    GRADER_FAIL(grader::Feedback("wgmma_gemm_kernel<k128B> disagrees with cuBLAS on 4096^3.")
                    .line(line)
                    .hint(kPipelineHint));
  }
}

WORKBOOK_CHECK(ex3_counters) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {
    GRADER_FAIL(grader::not_judged_while_wrong("Not counted",
                                               "wgmma_gemm_kernel gives wrong "
                                               "results"));
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) GRADER_SKIP("hardware counters not checked: " + counters.reason);
  // One block, eight K-tiles: the epilogue's 8-byte stores (64 per consumer warp) take 2
  // wavefronts each at best (two half-warp groups, stores never merge lane pairs). The TMA's
  // writes and wgmma's reads do not go through these counters.
  std::mt19937_64 rng(grader::run_seed() + 123);
  const ExactProblem p = exact_problem(ch12::kBlockM, ch12::kBlockN, 8 * ch12::kKTile, rng);
  gpu::DeviceBuffer<__half> a(p.A), b(p.B);
  gpu::DeviceBuffer<float> c(p.C.size());
  const gpu::SmemCounters got = gpu::measure_smem_counters([&] {
    ch12::probes::launch_yours(OperandLayout::k128B, a.get(), b.get(), c.get(), p.M, p.N, p.K);
    GPU_CHECK(cudaGetLastError());
  });
  const double stores = 2.0 * 4 * (ch12::kAccumulators / 2);      // 8 warps x 64 float2 stores
  const double loads = ch12::kBlockM * ch12::kBlockN / 4.0 / 32;  // float4 loads of the tile
  char counted[500];
  std::snprintf(counted, sizeof counted,
                "one block: counted %.0f shared stores taking %.0f wavefronts (%.2f each) and "
                "%.0f shared loads taking %.0f wavefronts (%.2f each); the contract's epilogue "
                "makes %.0f 8-byte stores (2 wavefronts each at best) and %.0f 16-byte loads (4 "
                "each).",
                got.store_instructions, got.store_wavefronts,
                got.store_wavefronts / std::max(1.0, got.store_instructions), got.load_instructions,
                got.load_wavefronts, got.load_wavefronts / std::max(1.0, got.load_instructions),
                stores, loads);
  std::cout << counted << "\n";
  grader::record_measurement(kMeasurementFile, "counted.gemm.store_instructions",
                             got.store_instructions, "");
  grader::record_measurement(kMeasurementFile, "counted.gemm.store_wavefronts",
                             got.store_wavefronts, "wavefronts");
  grader::record_measurement(kMeasurementFile, "counted.gemm.load_instructions",
                             got.load_instructions, "");
  grader::record_measurement(kMeasurementFile, "counted.gemm.load_wavefronts", got.load_wavefronts,
                             "wavefronts");
  GRADER_EXPECT(got.store_wavefronts <= 2 * got.store_instructions,
                grader::Feedback("The GPU counted more wavefronts in your epilogue's shared "
                                 "stores than 8-byte stores need: they conflict.")
                    .line(counted)
                    .hint("exercise 2b: at which pitch do the 4 rows a half-warp stores to fall "
                          "in different banks? Store d[reg], d[reg + 1] as one float2."));
  // The loads are shown, not judged: the load wavefront counter also counts the mbarrier
  // waits' polling (on the H200 the reference's 256 conflict-free float4 loads came with 1070
  // wavefronts, and the excess moves with timing), while no other shared store runs.
}

WORKBOOK_CHECK(ex3_speed) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  NEEDS_WGMMA();
  if (const auto why = not_runnable()) GRADER_FAIL(*why);
  if (wrong_on_a_quick_problem()) {  // correctness gates speed
    GRADER_FAIL(
        grader::not_judged_while_wrong("Not timed", "wgmma_gemm_kernel gives wrong results"));
  }
  constexpr int n = 4096;
  constexpr std::size_t count = static_cast<std::size_t>(n) * n;
  gpu::DeviceBuffer<__half> a(count), b(count);
  ch12::probes::random_halves(a.get(), n * static_cast<long long>(n), 5);
  ch12::probes::random_halves(b.get(), n * static_cast<long long>(n), 6);
  gpu::DeviceBuffer<float> c(count);
  const double flops = 2.0 * n * n * n;
  std::vector<grader::TimedKernel> kernels = {
      {"cublasGemmEx", [&] { ch12::probes::cublas_gemm(a.get(), b.get(), c.get(), n, n, n); }}};
  const int lt = std::min(4, ch12::probes::lt_algos(n, n, n));
  for (int algo = 0; algo < lt; ++algo) {
    kernels.push_back({"cuBLASLt, heuristic choice " + std::to_string(algo), [&, algo] {
                         ch12::probes::cublaslt_gemm(algo, a.get(), b.get(), c.get(), n, n, n);
                       }});
  }
  const std::size_t baseline_row = kernels.size();
  kernels.push_back({"wmma from global (grader)",
                     [&] { ch12::probes::launch_baseline(a.get(), b.get(), c.get(), n, n, n); }});
  const std::size_t yours_row = kernels.size();
  for (OperandLayout layout : ch12::kOperandLayouts) {
    kernels.push_back({std::string("yours, ") + name(layout), [&, layout] {
                         ch12::probes::launch_yours(layout, a.get(), b.get(), c.get(), n, n, n);
                       }});
  }
  // In turns: the H200 slows as it heats, and this way it slows every kernel alike.
  const std::vector<grader::SpeedRow> rows = grader::time_kernels_in_turns(kernels, 0, 21);
  double cublas_ms = rows[0].median_ms;
  for (std::size_t r = 1; r < baseline_row; ++r) cublas_ms = std::min(cublas_ms, rows[r].median_ms);
  const double baseline_ms = rows[baseline_row].median_ms, yours_ms = rows[yours_row].median_ms;
  const double speedup = baseline_ms / yours_ms;
  grader::record_measurement(kMeasurementFile, "gemm.cublas_tflops", flops / cublas_ms / 1e9,
                             "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.gemmex_tflops",
                             flops / rows[0].median_ms / 1e9, "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.tflops", flops / yours_ms / 1e9, "TFLOP/s");
  grader::record_measurement(kMeasurementFile, "gemm.fraction_of_cublas", cublas_ms / yours_ms, "");
  grader::record_measurement(kMeasurementFile, "gemm.baseline_fraction_of_cublas",
                             cublas_ms / baseline_ms, "");
  grader::record_measurement(kMeasurementFile, "gemm.speedup_over_baseline", speedup, "x");
  std::string table =
      "GEMM 4096 x 4096 x 4096, fp16 in, fp32 accumulate, median of 21 launches each, in turns "
      "(cuBLAS: the faster of cublasGemmEx and cuBLASLt's heuristic choices):\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-36s %8.3f ms  %6.1f TFLOP/s  %5.2f of cuBLAS\n",
                  rows[r].name.c_str(), rows[r].median_ms, flops / rows[r].median_ms / 1e9,
                  cublas_ms / rows[r].median_ms);
    table += line;
    if (r >= yours_row) {
      const OperandLayout layout = ch12::kOperandLayouts[r - yours_row];
      grader::record_measurement(kMeasurementFile,
                                 std::string("layouts.") + key(layout) + ".fraction_of_cublas",
                                 cublas_ms / rows[r].median_ms, "");
    }
  }
  char last[120];
  std::snprintf(last, sizeof last, "  wgmma_gemm_kernel<k128B> is %.2fx the grader's baseline.\n",
                speedup);
  table += last;
  std::cout << table;
  const grader::Threshold& bar = grader::chapter::threshold("speedup_over_baseline");
  char headline[200];
  std::snprintf(headline, sizeof headline,
                "wgmma_gemm_kernel<k128B> is %.2fx as fast as the grader's baseline, timed in the "
                "same run; it must reach %.2fx.",
                speedup, bar.value);
  GRADER_EXPECT(grader::passes(bar, speedup),
                grader::Feedback(headline).line(table).hint(
                    "keep the next K-tile's wgmma queued behind the current one (wgmma_wait<1>), "
                    "release each stage as soon as its wgmma ops are done, and let the producer "
                    "run ahead by the whole ring."));
}
