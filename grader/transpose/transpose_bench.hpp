// The transpose ladder's shared bench (chapters 05-08): correctness on awkward shapes against a
// CPU transpose, and timing against the device copy and a naive transpose, in one run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/counters/smem_counters.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/threshold.hpp"

namespace transpose {

/// Launches a transpose kernel: `out` (cols x rows, row-major) = transpose of `in` (rows x cols).
/// Launch only; the bench checks and synchronises.
using Launch = std::function<void(const float* in, float* out, int rows, int cols)>;

/// The shapes a kernel's contract accepts.
struct Contract {
  int tile = 32;        ///< Rows and columns of the tile one block moves.
  int multiple_of = 1;  ///< Rows and columns are multiples of this (4 for float4 rows).
};

/// Runs `launch` on random inputs of square, rectangular, tiny and non-multiple-of-the-tile
/// shapes (and one large square where a missing barrier shows), all multiples of
/// `contract.multiple_of`, output poisoned with NaN before each launch, and compares every
/// element exactly. Returns the feedback for the first wrong one.
std::optional<grader::Feedback> check_correct(const Launch& launch, const std::string& kernel,
                                              std::uint64_t seed, const Contract& contract = {});

/// The same check on the given shapes (rows, cols), each a multiple of `contract.multiple_of`:
/// official grading's hidden checks try shapes the hand-out's checks do not.
std::optional<grader::Feedback> check_correct_on(const Launch& launch, const std::string& kernel,
                                                 std::uint64_t seed,
                                                 const std::vector<std::pair<int, int>>& shapes,
                                                 const Contract& contract = {});

/// The feedback when a correct transpose `kernel` does not move its matrix through its tile:
/// the hardware counted more than twice the minimum of global sectors in its loads or its stores
/// on a matrix of whole tiles (`contract.tile`), the cost of reading or writing columns
/// (recorded in `file` as counted.global_load_sectors_over_minimum and ..._store_...). The
/// grader's naive baseline is a correct transpose too; the exercise is the one through the
/// tile. Nothing when it does, or when counters cannot be read (it says so).
std::optional<grader::Feedback> tile_not_staged(const Launch& launch, const std::string& kernel,
                                                const std::string& file,
                                                const Contract& contract = {});

/// The shared-memory counters of `launch` transposing one `side` x `side` tile (one block).
gpu::SmemCounters count_one_tile(const Launch& launch, int side);

/// The same launch, for `render` (a chapter's grader::chapter::lines_of): the shared memory of
/// one tile line by line.
std::string lines_of_one_tile(
    const Launch& launch, int side,
    const std::function<std::string(const std::function<void()>&)>& render);

/// Median times (31 launches) of the device copy, the naive transpose and `launch` on an
/// n x n float matrix, in the same run.
struct Times {
  int n = 0;
  double bytes = 0;  ///< Read plus written by one transpose.
  double copy_ms = 0, naive_ms = 0, yours_ms = 0;
  double fraction_of_copy() const { return copy_ms / yours_ms; }
};
Times time_transpose(const Launch& launch, const std::string& kernel, int n = 8192);

/// Checks correctness first (on the shapes of `contract`), then times `launch` and judges its
/// speed over the naive transpose, timed in the same run, against threshold `need`: a ratio of
/// two kernels on the same GPU, which holds on GPUs with more or less bandwidth per SM, where a
/// fraction of the copy bandwidth does not (the table still shows it). Prints and records the
/// ladder table (grader::record_speed_table: `<file>` gets transpose.speedup_over_naive,
/// transpose.fraction_of_copy, ...). The feedback for a failure, or nothing.
std::optional<grader::Feedback> judge_speedup_over_naive(
    const Launch& launch, const std::string& kernel, const std::string& label,
    const std::string& file, const grader::Threshold& need, const std::string& hint,
    const Contract& contract = {});

}  // namespace transpose
