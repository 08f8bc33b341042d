/// @file random_seed.hpp
/// @brief One random seed per grader run, printed so that a failure can be replayed.
#pragma once

#include <cstdint>

namespace grader {

/// The seed for this run's random inputs: WORKBOOK_SEED from the environment when set, else a
/// fresh one. The first call prints it with the line that replays the run.
std::uint64_t run_seed();

}  // namespace grader
