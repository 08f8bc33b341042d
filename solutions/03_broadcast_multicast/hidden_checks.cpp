// Chapter 03's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The table layout against the keys that collide worst in it, found from the layout
// itself, and lookup_kernel on sizes, keys and a seed the hand-out's checks do not try.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/model/bank_model.hpp"
#include "grader/03_broadcast_multicast/lookup_checks.hpp"
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

}  // namespace

WORKBOOK_CHECK(hidden_table) {
  // Only a valid table has collisions to look for: one that sends every lane to one word is a
  // broadcast, one wavefront for any keys, and holds one entry.
  if (const auto fault = ch03::checks::table_fault()) {
    GRADER_FAIL(grader::not_judged_while_invalid(fault->fact, ch03::checks::kLayoutCheck));
  }
  const int words = ch03::table_words();
  // Every bank: what each lane can reach in it.
  std::array<std::array<Reach, kLanes>, smem::kNumBanks> reach;
  for (int key = 0; key < ch03::kTableEntries; ++key) {
    for (int t = 0; t < kLanes; ++t) {
      const int s = ch03::table_slot(key, t);
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
  if (worst == 1) {
    SUCCEED();
    return;
  }
  const auto request = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) {
    return 4LL * ch03::table_slot(worst_keys[static_cast<std::size_t>(t)], t);
  });
  std::string keys;
  for (int t = 0; t < kLanes; ++t) {
    keys += (t ? " " : "") + std::to_string(worst_keys[static_cast<std::size_t>(t)]);
  }
  GRADER_FAIL(grader::Feedback("Keys chosen to collide in your table make a warp's lookup take " +
                               grader::wavefronts(smem::analyze(request).wavefronts) +
                               "; it must take one for any keys.")
                  .line("the keys, lane 0 first: " + keys)
                  .picture(grader::draw(request))
                  .hint("random keys may miss a collision that some keys make; for every key "
                        "to be safe, no other lane may read a different word in a bank that "
                        "lane t reads from."));
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
