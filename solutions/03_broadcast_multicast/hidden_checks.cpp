// Chapter 03's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The table layout against the keys that collide worst in it, found from the layout
// itself, and lookup_kernel on sizes, keys and a seed the hand-out's checks do not try.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/model/bank_model.hpp"
#include "grader/03_broadcast_multicast/table_check.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"

namespace {

constexpr int kLanes = 32;

// What lane t can read in one bank: (word, key) for every key whose slot for t lies there.
using Reach = std::vector<std::pair<int, int>>;

// Kuhn's augmenting path: gives lane t a word of the bank that no other lane holds yet.
bool give_word(int t, const std::array<Reach, kLanes>& reach, std::vector<int>& holder,
               std::vector<bool>& seen) {
  for (const auto& [word, key] : reach[t]) {
    (void)key;
    if (seen[word]) continue;
    seen[word] = true;
    if (holder[word] < 0 || give_word(holder[word], reach, holder, seen)) {
      holder[word] = t;
      return true;
    }
  }
  return false;
}

// The keys that collide worst in a valid table of `entries` entries, found from the layout itself:
// the feedback if they make a warp's lookup take more than one wavefront, or nothing.
std::optional<grader::Feedback> worst_keys_problem(int entries) {
  const int words = ch03::table_words(entries);
  const std::vector<int> slots = ch03::checks::table_slots(entries);
  const auto slot = [&](int key, int t) { return slots[static_cast<std::size_t>(32 * key + t)]; };
  // Every bank: what each lane can reach in it.
  std::array<std::array<Reach, kLanes>, smem::kNumBanks> reach;
  for (int key = 0; key < entries; ++key) {
    for (int t = 0; t < kLanes; ++t) {
      const int s = slot(key, t);
      reach[static_cast<std::size_t>(s % smem::kNumBanks)][static_cast<std::size_t>(t)].push_back(
          {s, key});
    }
  }
  // The keys that make the most lanes read different words of one bank at once: a largest
  // matching of lanes to words, bank by bank. Two matched lanes are a conflict.
  int worst = 1;
  std::vector<int> worst_keys(kLanes, 0);
  for (int bank = 0; bank < smem::kNumBanks; ++bank) {
    std::vector<int> holder(static_cast<std::size_t>(words), -1);
    int matched = 0;
    for (int t = 0; t < kLanes; ++t) {
      std::vector<bool> seen(static_cast<std::size_t>(words), false);
      if (give_word(t, reach[static_cast<std::size_t>(bank)], holder, seen)) ++matched;
    }
    if (matched <= worst) continue;
    worst = matched;
    std::fill(worst_keys.begin(), worst_keys.end(), 0);
    for (int w = 0; w < words; ++w) {
      if (holder[static_cast<std::size_t>(w)] < 0) continue;
      const int t = holder[static_cast<std::size_t>(w)];
      for (const auto& [word, key] : reach[static_cast<std::size_t>(bank)][t]) {
        if (word == w) worst_keys[static_cast<std::size_t>(t)] = key;
      }
    }
  }
  if (worst == 1) return std::nullopt;
  const auto request = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) {
    return 4LL * slot(worst_keys[static_cast<std::size_t>(t)], t);
  });
  std::string keys;
  for (int t = 0; t < kLanes; ++t) {
    keys += (t ? " " : "") + std::to_string(worst_keys[static_cast<std::size_t>(t)]);
  }
  return grader::Feedback("In a table of " + std::to_string(entries) +
                          " entries, keys chosen to collide make a warp's lookup take " +
                          grader::wavefronts(smem::analyze(request).wavefronts) +
                          "; it must take one for any keys.")
      .line("the keys, lane 0 first: " + keys)
      .picture(grader::draw(request))
      .hint(
          "random keys may miss a collision that some keys make; for every key to be safe, no "
          "other lane may read a different word in a bank that lane t reads from, at every "
          "table size of the contract.");
}

}  // namespace

WORKBOOK_CHECK(hidden_table) {
  // lookup_kernel's table, then larger tables than any local run asks. Only a valid table has
  // collisions to look for: one that sends every lane to one word is a broadcast, one wavefront
  // for any keys, and holds one entry.
  std::mt19937 rng(grader::hidden_seed(305));
  const int asked_above = ch03::checks::kTableEntriesAskedLocally;
  const int larger =
      asked_above + 1 + static_cast<int>(rng() % (ch03::checks::kMostTableEntries - asked_above));
  for (const int entries : {ch03::kTableEntries, larger, ch03::checks::kMostTableEntries}) {
    if (const auto fault = ch03::checks::table_fault(entries)) {
      // lookup_kernel's table has a local check of its own to pass first; the larger ones not.
      GRADER_FAIL(entries == ch03::kTableEntries
                      ? grader::not_judged_while_invalid(fault->fact, ch03::checks::kLayoutCheck)
                      : ch03::checks::table_feedback(*fault));
    }
    if (auto problem = worst_keys_problem(entries)) GRADER_FAIL(*problem);
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_lookup) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  std::mt19937_64 rng(grader::hidden_seed(301));
  std::vector<unsigned> table(ch03::kTableEntries);
  for (unsigned& e : table) e = static_cast<unsigned>(rng());
  const std::pair<const char*, std::function<unsigned(std::size_t)>> kinds[] = {
      {"uniform keys", [&](std::size_t) { return static_cast<unsigned>(rng()); }},
      {"keys 32 apart", [&](std::size_t) { return 5u + 32u * static_cast<unsigned>(rng() % 8); }},
      {"one key per half-warp", [&](std::size_t i) { return 7u * static_cast<unsigned>(i / 16); }},
  };
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32},
                              std::size_t{33}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                              std::size_t{4097}, (std::size_t{1} << 20) + 7}) {
    for (const auto& [what, key_of] : kinds) {
      std::vector<unsigned char> keys(n);
      for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<unsigned char>(key_of(i) & 255u);
      if (const auto problem = ch03::checks::lookup_mismatch(table, keys, what)) {
        GRADER_FAIL(*problem);
      }
    }
  }
  SUCCEED();
}
