// Chapter 03: the GPU checks' judgement of lookup_kernel with the student's table, for the
// hand-out's cases and for official grading's others alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "grader/03_broadcast_multicast/device_probes.hpp"
#include "grader/03_broadcast_multicast/table_check.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch03::checks {

/// lookup_kernel<YourTable> on `keys` with `table` against the CPU; the feedback for the first
/// wrong result, naming the keys as `what` ("uniform keys"), or why it was not run.
inline std::optional<grader::Feedback> lookup_mismatch(const std::vector<unsigned>& table,
                                                       const std::vector<unsigned char>& keys,
                                                       const std::string& what) {
  // The launch sizes shared memory from table_words() and indexes it with table_slot(): both
  // are checked on the host first. (Two entries in one slot are left to the results.)
  if (const auto fault = table_fault(ch03::kTableEntries, /*apart=*/false)) {
    return grader::not_run_while_invalid(*fault, kLayoutCheck);
  }
  const std::vector<unsigned> out = ch03::probes::lookups(table, keys, true);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const unsigned want = ch03::lookup_rounds_reference(table.data(), keys[i]);
    if (out[i] == want) continue;
    return grader::Feedback("lookup_kernel<YourTable> with " + what + ", " +
                            std::to_string(keys.size()) + " keys: out[" + std::to_string(i) +
                            "] is " + std::to_string(out[i]) + ", expected " +
                            std::to_string(want) + " (key " + std::to_string(keys[i]) + ").")
        .hint(
            "every slot that table_slot returns must hold its entry; see the host checks of "
            "exercise 2.");
  }
  return std::nullopt;
}

}  // namespace ch03::checks
