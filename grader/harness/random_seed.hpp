/// @file random_seed.hpp
/// @brief One random seed per grader run, printed so that a failure can be replayed.
#pragma once

#include <cstdint>

namespace grader {

/// The seed for this run's random inputs: WORKBOOK_SEED from the environment when set, else a
/// fresh one. The first call prints it with the line that replays the run.
std::uint64_t run_seed();

/// Stream `stream` of the hidden checks' seed: from WORKBOOK_HIDDEN_SEED, which official grading
/// (tools/instructor/grade) draws for each grading and records, else from a fixed seed, so that
/// a local run of the hidden checks (solution mode) repeats. Printed nowhere.
std::uint64_t hidden_seed(std::uint64_t stream);

}  // namespace grader
