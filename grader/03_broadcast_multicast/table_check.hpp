// Chapter 03: exercise 2's table as a layout, before anything is counted or launched through it:
// table_words() within what a block may ask for, every table_slot() inside it, and no slot
// holding two entries. The host checks, the hidden one and the GPU checks (which size the
// kernel's shared memory from table_words() and index it with table_slot()) ask it first. Then
// the GPU checks' judgement of lookup_kernel with the student's table, for the hand-out's cases
// and for official grading's others alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "grader/03_broadcast_multicast/device_probes.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"

namespace ch03::checks {

/// The most words a table may take: 48 KiB of shared memory (a table needs one an entry, at least).
constexpr int kMostTableWords = 48 * 1024 / 4;
/// The largest tables of the contract, and the largest a local run asks (official grading asks
/// the rest).
constexpr int kMostTableEntries = 384;
constexpr int kTableEntriesAskedLocally = 256;

/// The name of the check that judges the layout itself (its TEST_CASE), for the messages of the
/// checks it gates.
inline const char* const kLayoutCheck = ::grader::chapter::checks::ex2_layout.name;

using TableFault = grader::LayoutFault;

inline std::string call_of(int key, int lane, int entries) {
  return "table_slot(" + std::to_string(key) + ", " + std::to_string(lane) + ", " +
         std::to_string(entries) + ")";
}

/// table_slot(key, lane, entries) of every key and lane of a table of `entries` entries, asked
/// of the student's code in one batch: slot 32 key + lane.
inline std::vector<int> table_slots(int entries) {
  return grader::subject::grid_of_calls(ch03::table_slot, entries, 32, entries);
}

/// A flag where the table's size belongs is refused, not read as a size of 0 or 1 entries.
std::optional<TableFault> table_fault(bool, bool = true) = delete;

/// The first problem of a table of `entries` entries' bounds: table_words(entries) outside
/// [entries, kMostTableWords], checked before anything is sized from it, then a slot outside
/// [0, table_words(entries)). With `apart`, also a slot that holds two entries.
inline std::optional<TableFault> table_fault(int entries, bool apart = true) {
  const int words = ch03::table_words(entries);
  const std::string size_call = "table_words(" + std::to_string(entries) + ")";
  if (auto fault = grader::size_fault(
          size_call, words, entries, kMostTableWords, "words",
          "one word for each of the " + std::to_string(entries) +
              " entries, at most 48 KiB of shared memory",
          "table_words() sizes the kernel's shared memory: the words your table_slot() uses, no "
          "more than 48 KiB.")) {
    return fault;
  }
  const std::vector<int> slots = table_slots(entries);
  std::vector<int> entry_in(static_cast<size_t>(words), -1);  // the entry of each slot
  std::vector<int> first_lane(static_cast<size_t>(words), -1);
  for (int key = 0; key < entries; ++key) {
    for (int lane = 0; lane < 32; ++lane) {
      const int s = slots[static_cast<size_t>(32 * key + lane)];
      if (s < 0 || s >= words) {
        return TableFault{call_of(key, lane, entries) + " is " + std::to_string(s) +
                              ", outside [0, " + size_call + " = " + std::to_string(words) + ")",
                          "table_words() must cover every slot the table uses."};
      }
      int& entry = entry_in[static_cast<size_t>(s)];
      if (apart && entry >= 0 && entry != key) {
        return TableFault{"slot " + std::to_string(s) + " holds entry " + std::to_string(entry) +
                              " (" + call_of(entry, first_lane[static_cast<size_t>(s)], entries) +
                              ") and entry " + std::to_string(key) + " (" +
                              call_of(key, lane, entries) + "): one word cannot hold two entries",
                          "copies of one entry may share a slot; different entries may not."};
      }
      if (entry < 0) {
        entry = key;
        first_lane[static_cast<size_t>(s)] = lane;
      }
    }
  }
  return std::nullopt;
}

/// The feedback of the layout check for `fault`.
inline grader::Feedback table_feedback(const TableFault& fault) {
  std::string headline = fault.fact + ".";
  headline[0] = static_cast<char>(headline[0] == 's' ? 'S' : headline[0]);
  return grader::Feedback(headline).hint(fault.hint);
}

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
