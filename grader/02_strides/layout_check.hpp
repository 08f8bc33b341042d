// Chapter 02: exercise 3's layout as a layout, before anything is counted or launched through
// it: staged_words() within what the kernel may ask for, every staged_index() inside it, and no
// two values in one word. The host checks and the GPU checks (which size the kernel's shared
// memory from staged_words() and index it with staged_index()) ask it first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch02::checks {

/// The fewest words a layout of every (owner, value) needs: one each.
constexpr int kLeastStagedWords = ch02::kThreads * ch02::kValuesPerThread;
/// The most: 48 KiB of shared memory.
constexpr int kMostStagedWords = 48 * 1024 / 4;

/// The name of the check that judges the layout itself (its TEST_CASE), for the messages of the
/// checks it gates.
inline const char* const kLayoutCheck = ::grader::chapter::checks::ex3_layout.name;

using grader::LayoutFault;

inline std::string call_of(int owner, int i) {
  return "staged_index(" + std::to_string(owner) + ", " + std::to_string(i) + ")";
}

/// The first problem of the layout's bounds: staged_words() outside [kLeastStagedWords,
/// kMostStagedWords], checked before anything is sized from it, then an index outside
/// [0, staged_words()). With `bijection`, also two (owner, value) pairs on one word.
inline std::optional<LayoutFault> layout_fault(bool bijection = true) {
  const int words = ch02::staged_words();
  if (auto fault = grader::size_fault(
          "staged_words()", words, kLeastStagedWords, kMostStagedWords, "words",
          "one word for each of the 256 x 32 values, at most 48 KiB of shared memory",
          "staged_words() sizes the kernel's shared memory: the words your staged_index() uses, "
          "no more than 48 KiB.")) {
    return fault;
  }
  std::vector<int> user(static_cast<size_t>(words), -1);  // owner * 32 + i of each word's value
  for (int owner = 0; owner < ch02::kThreads; ++owner) {
    for (int i = 0; i < ch02::kValuesPerThread; ++i) {
      const int w = ch02::staged_index(owner, i);
      if (w < 0 || w >= words) {
        return LayoutFault{call_of(owner, i) + " is " + std::to_string(w) +
                               ", outside [0, staged_words() = " + std::to_string(words) + ")",
                           "staged_words() must cover every index the layout uses."};
      }
      int& earlier = user[static_cast<size_t>(w)];
      if (bijection && earlier >= 0) {
        return LayoutFault{
            call_of(owner, i) + " is word " + std::to_string(w) + ", which " +
                call_of(earlier / ch02::kValuesPerThread, earlier % ch02::kValuesPerThread) +
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

}  // namespace ch02::checks
