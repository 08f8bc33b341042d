/// @file random_seed.hpp
/// @brief One random seed per grader run, printed so that a failure can be replayed.
#pragma once

#include <cstdint>

namespace grader {

/// splitmix64: advances `state` and returns its next 64 random bits.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The seed for this run's random inputs: WORKBOOK_SEED from the environment when set, else a
/// fresh one. The first call prints it with the line that replays the run.
std::uint64_t run_seed();

/// Stream `stream` of the hidden checks' seed: from WORKBOOK_HIDDEN_SEED, which official grading
/// (tools/instructor/grade) draws for each grading and records, else from a fixed seed, so that
/// a local run of the hidden checks (solution mode) repeats. Printed nowhere.
std::uint64_t hidden_seed(std::uint64_t stream);

}  // namespace grader
