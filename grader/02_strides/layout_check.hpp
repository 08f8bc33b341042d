// Chapter 02: exercise 3's layout as a layout, before anything is counted or launched through
// it: staged_words() within what a block may ask for, every staged_index() inside it, and no
// two values in one word. The host checks and the GPU checks (which size the kernel's shared
// memory from staged_words() and index it with staged_index()) ask it first. Then the conflicts
// of the kernel's two loops, for any block size of the contract, and the GPU checks' judgements
// of the exercise's kernels, for the hand-out's cases and for official grading's others alike.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "common/model/bank_model.hpp"
#include "grader/02_strides/device_probes.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"

namespace ch02::checks {

/// The most words a layout may take: 48 KiB of shared memory (one a value, at least).
constexpr int kMostStagedWords = 48 * 1024 / 4;
/// The largest blocks of the contract, and the largest a local run asks (official grading asks
/// the rest).
constexpr int kMostThreads = 352;
constexpr int kThreadsAskedLocally = 256;

/// The name of the check that judges the layout itself (its TEST_CASE), for the messages of the
/// checks it gates.
inline const char* const kLayoutCheck = ::grader::chapter::checks::ex3_layout.name;

using grader::LayoutFault;

inline std::string call_of(int owner, int i, int threads) {
  return "staged_index(" + std::to_string(owner) + ", " + std::to_string(i) + ", " +
         std::to_string(threads) + ")";
}

/// staged_index(owner, i, threads) of every owner and value of a block of `threads` threads,
/// asked of the student's code in one batch: index owner * kValuesPerThread + i.
inline std::vector<int> staged_indices(int threads) {
  return grader::subject::grid_of_calls(ch02::staged_index, threads, ch02::kValuesPerThread,
                                        threads);
}

/// A flag where the block's size belongs is refused, not read as a size of 0 or 1 threads.
std::optional<LayoutFault> layout_fault(bool, bool = true) = delete;

/// The first problem of the bounds of a block of `threads` threads' layout:
/// staged_words(threads) outside [one word a value, kMostStagedWords], checked before anything
/// is sized from it, then an index outside [0, staged_words(threads)). With `bijection`, also
/// two (owner, value) pairs on one word.
inline std::optional<LayoutFault> layout_fault(int threads, bool bijection = true) {
  const int words = ch02::staged_words(threads);
  const std::string size_call = "staged_words(" + std::to_string(threads) + ")";
  if (auto fault = grader::size_fault(
          size_call, words, threads * ch02::kValuesPerThread, kMostStagedWords, "words",
          "one word for each of the " + std::to_string(threads) +
              " x 32 values, at most 48 KiB of shared memory",
          "staged_words() sizes the kernel's shared memory: the words your staged_index() uses, "
          "no more than 48 KiB.")) {
    return fault;
  }
  const std::vector<int> index = staged_indices(threads);
  std::vector<int> user(static_cast<size_t>(words), -1);  // owner * 32 + i of each word's value
  for (int owner = 0; owner < threads; ++owner) {
    for (int i = 0; i < ch02::kValuesPerThread; ++i) {
      const int w = index[static_cast<size_t>(owner * ch02::kValuesPerThread + i)];
      if (w < 0 || w >= words) {
        return LayoutFault{call_of(owner, i, threads) + " is " + std::to_string(w) +
                               ", outside [0, " + size_call + " = " + std::to_string(words) + ")",
                           "staged_words() must cover every index the layout uses."};
      }
      int& earlier = user[static_cast<size_t>(w)];
      if (bijection && earlier >= 0) {
        return LayoutFault{call_of(owner, i, threads) + " is word " + std::to_string(w) +
                               ", which " +
                               call_of(earlier / ch02::kValuesPerThread,
                                       earlier % ch02::kValuesPerThread, threads) +
                               " already uses",
                           "two values in one word overwrite each other: the layout must be a "
                           "bijection."};
      }
      earlier = owner * ch02::kValuesPerThread + i;
    }
  }
  return std::nullopt;
}

/// The feedback of the layout check for `fault`.
inline grader::Feedback layout_feedback(const LayoutFault& fault) {
  return grader::Feedback(fault.fact + ".").hint(fault.hint);
}

/// The first conflicting request of owner_sums_kernel's two loops in a block of `threads`
/// threads, with a valid layout: the feedback, or nothing.
inline std::optional<grader::Feedback> conflict_problem(int threads) {
  const std::vector<int> index = staged_indices(threads);
  const auto at = [&](int owner, int i) {
    return 4LL * index[static_cast<size_t>(owner * ch02::kValuesPerThread + i)];
  };
  const std::string block =
      threads == ch02::kThreads ? "" : " (a block of " + std::to_string(threads) + " threads)";
  // Staging: warp w of the block, round k, stores the 32 values of owner (threads / 32) k + w.
  for (int k = 0; k < ch02::kValuesPerThread; ++k) {
    for (int w = 0; w < threads / 32; ++w) {
      const int owner = threads / 32 * k + w;
      const auto r =
          smem::WarpRequest::from_lanes(4, smem::Op::kStore, [&](int t) { return at(owner, t); });
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts == 1) continue;
      return grader::Feedback("The staging stores conflict" + block + ": warp " +
                              std::to_string(w) + " storing the 32 values of owner " +
                              std::to_string(owner) + " takes " + std::to_string(a.wavefronts) +
                              " wavefronts.")
          .picture(grader::draw(r))
          .hint(
              "a warp stores ONE owner's 32 values at once: they must fall in 32 different "
              "banks, as the 32 owners' values the sum loop reads together must. A layout "
              "that mends one loop may break the other.");
    }
  }
  // Sum: warp w reads value i of owners 32w .. 32w + 31.
  for (int w = 0; w < threads / 32; ++w) {
    for (int i = 0; i < ch02::kValuesPerThread; ++i) {
      const auto r = smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                                   [&](int t) { return at(32 * w + t, i); });
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts == 1) continue;
      return grader::Feedback("The sum loads conflict" + block + ": warp " + std::to_string(w) +
                              " reading value " + std::to_string(i) + " of its 32 owners takes " +
                              std::to_string(a.wavefronts) + " wavefronts.")
          .picture(grader::draw(r))
          .hint(
              "a warp reads value i of 32 owners: words as far apart as one owner's row is "
              "long, so the gcd law (section 1) prices it by that stride. Worked on another "
              "layout: 64 owners of 8 values, read value by value, are a stride of 8 words, "
              "gcd(8, 32) = 8-way.");
    }
  }
  return std::nullopt;
}

/// The bank model's wavefronts for a warp of float loads at word stride `stride`.
inline int model_wavefronts(int stride) {
  return smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                                     [stride](int t) { return 4LL * stride * t; }))
      .wavefronts;
}

/// The probe must end every lane at word lane * stride; the feedback when it does not.
inline std::optional<grader::Feedback> probe_misbehaves(int stride,
                                                        const std::vector<unsigned>& sink) {
  for (int t = 0; t < 32; ++t) {
    const unsigned want = static_cast<unsigned>(t * stride);
    if (sink[t] == want) continue;
    grader::Feedback f("stride_probe_kernel at stride " + std::to_string(stride) + ": lane " +
                       std::to_string(t) + " wrote " + std::to_string(sink[t]) +
                       " to sink; its chain should end at word " + std::to_string(want) + ".");
    if (sink[t] == 0xAAAAAAAAu)
      f.line("stride_probe_kernel is not implemented yet (sink unwritten).");
    f.hint(
        "zero the shared words first, start at index lane * stride, and chain the loads "
        "(index += words[index]).");
    return f;
  }
  return std::nullopt;
}

/// owner_sums_kernel with the student's layout against the CPU for each of `owner_counts`, on
/// random data from `seed`; the feedback for the first wrong sum, or why it was not run.
inline std::optional<grader::Feedback> owner_sums_problem(const std::vector<int>& owner_counts,
                                                          std::uint64_t seed) {
  // The launch sizes shared memory from staged_words() and indexes it with staged_index():
  // both are checked on the host first. (Two values in one word are left to the sums.)
  if (const auto fault = layout_fault(ch02::kThreads, /*bijection=*/false)) {
    return grader::not_run_while_invalid(*fault, kLayoutCheck);
  }
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int owners : owner_counts) {
    std::vector<float> in(static_cast<size_t>(owners) * ch02::kValuesPerThread);
    for (float& x : in) x = uniform(rng);
    const std::vector<float> out = ch02::probes::owner_sums(in, owners, true);
    for (int g = 0; g < owners; ++g) {
      double want = 0, scale = 0;
      for (int i = 0; i < 32; ++i) {
        want += (i + 1.0) * in[static_cast<size_t>(g) * 32 + i];
        scale += (i + 1.0) * std::fabs(in[static_cast<size_t>(g) * 32 + i]);
      }
      if (!(std::fabs(out[g] - want) <= 1e-5 * scale + 1e-6)) {
        return grader::Feedback("owner_sums_kernel<YourLayout> with " + std::to_string(owners) +
                                " owners: out[" + std::to_string(g) + "] is " +
                                std::to_string(out[g]) + ", expected " + std::to_string(want) + ".")
            .hint(
                "check the host checks of the layout first: two values sharing a word, or an "
                "index beyond staged_words(), corrupt the sums.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace ch02::checks
