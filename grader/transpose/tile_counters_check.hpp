// The transpose ladder's GPU check of predictions (chapters 05 and 08): the hardware counters
// of the student's kernel moving one tile, against the wavefronts predicted per tile store and
// tile load.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common/counters/smem_counters.hpp"
#include "common/model/bank_model.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace transpose {

/// Why the counters were not checked (skip), or what is wrong (fail); both empty: agreed.
struct CounterVerdict {
  std::optional<std::string> skipped;
  std::optional<grader::Feedback> problem;
};

/// Where the expected wavefronts come from: the student's predictions (the counted numbers would
/// give the answers away, so only a reveal shows them) or what the student's own layout function
/// promises (shown as they are).
enum class Expected { kPredicted, kLayoutPromise };

/// Counts the shared-memory wavefronts of `launch` transposing one `side` x `side` tile, records
/// them per store and per load in `file` as counted.store_wavefronts and
/// counted.load_wavefronts, and compares them with the expected ones. `exercise` names the
/// kernel's exercise in the feedback, `promised_by` the layout function when `expected` is
/// kLayoutPromise.
inline CounterVerdict judge_tile_counters(const Launch& launch, int side, int predicted_store,
                                          int predicted_load, const std::string& file,
                                          const std::string& exercise, const std::string& hint,
                                          Expected expected = Expected::kPredicted,
                                          const std::string& promised_by = "") {
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) return {"hardware counters not checked: " + counters.reason, {}};
  const gpu::SmemCounters c = count_one_tile(launch, side);
  if (c.store_instructions == 0 || c.load_instructions == 0) {
    return {{},
            grader::Feedback("Your kernel executed " + grader::fixed(c.store_instructions, 0) +
                             " shared stores and " + grader::fixed(c.load_instructions, 0) +
                             " shared loads for one tile; it must stage the tile in shared "
                             "memory.")
                .hint(exercise + " is not done yet, or does not use the tile.")};
  }
  const double store = c.store_wavefronts / c.store_instructions;
  const double load = c.load_wavefronts / c.load_instructions;
  grader::record_measurement(file, "counted.store_wavefronts", store, "wavefronts");
  grader::record_measurement(file, "counted.load_wavefronts", load, "wavefronts");
  if (store == predicted_store && load == predicted_load) {
    grader::chapter::show_lines_if_asked(
        [&] { return lines_of_one_tile(launch, side, grader::chapter::lines_of); },
        expected == Expected::kPredicted);
    return {};
  }
  std::string differs;
  if (store != predicted_store) {
    differs = grader::more_or_fewer(store, predicted_store) + " wavefronts per tile store";
  }
  if (load != predicted_load) {
    differs += (differs.empty() ? "" : " and ") + grader::more_or_fewer(load, predicted_load) +
               " wavefronts per tile load";
  }
  const std::string counted = "The GPU counted " + grader::fixed(store) +
                              " wavefronts per tile store and " + grader::fixed(load) +
                              " per tile load.";
  // Which line of the kernel has them (its kernels file is the chapter's, beside the grader).
  const std::string lines = lines_of_one_tile(launch, side, grader::chapter::lines_of);
  if (expected == Expected::kLayoutPromise) {
    return {{},
            grader::Feedback("The GPU counted " + differs + " in your kernel than " + promised_by +
                             " promises (" + std::to_string(predicted_store) + " per store, " +
                             std::to_string(predicted_load) + " per load).")
                .line(counted)
                .picture(lines)
                .hint(hint)};
  }
  return {{},
          grader::Feedback("The GPU counted " + differs + " in your kernel than you predicted (" +
                           std::to_string(predicted_store) + " per store, " +
                           std::to_string(predicted_load) + " per load).")
              .hint(hint)
              .reveal(counted)
              .reveal(lines)};
}

/// The counters of `launch` against what the student's layout function `index(row, col)`
/// (named `name`, returning a word of the tile) promises: the bank model's wavefronts for a warp
/// storing row 0 and for a warp loading column 0.
inline CounterVerdict judge_layout_counters(const Launch& launch, int side,
                                            const std::function<int(int, int)>& index,
                                            const std::string& name, const std::string& file,
                                            const std::string& exercise) {
  const int store = smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kStore, [&](int t) {
                      return 4LL * index(0, t);
                    })).wavefronts;
  const int load = smem::analyze(smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) {
                     return 4LL * index(t, 0);
                   })).wavefronts;
  return judge_tile_counters(launch, side, store, load, file, exercise,
                             "the kernel must address its tile through " + name +
                                 "(row, col), for the stores and the loads.",
                             Expected::kLayoutPromise, name);
}

}  // namespace transpose
