#include "common/model/bank_model.hpp"

#include <algorithm>
#include <sstream>

namespace smem {

const char* to_string(Op op) {
  switch (op) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kLdmatrix: return "ldmatrix";
    case Op::kAsyncCopy: return "cp.async";
  }
  return "?";
}

std::string WarpRequest::describe() const {
  if (op == Op::kLdmatrix) return "ldmatrix.x" + std::to_string(matrices);
  if (op == Op::kAsyncCopy) {
    return global_row_bytes >= 128 * 4
               ? "cp.async (one contiguous global run)"
               : "cp.async (global rows of " + std::to_string(global_row_bytes) + " bytes)";
  }
  return std::to_string(width_bytes) + "-byte " + to_string(op);
}

int WarpRequest::global_line(int t) const {
  const int per_row = std::max(1, global_row_bytes / 16);
  return per_row >= 8 ? t / 8 : t / per_row;
}

int WarpRequest::global_chunk(int t) const {
  const int per_row = std::max(1, global_row_bytes / 16);
  return per_row >= 8 ? t % 8 : t % per_row;
}

std::string op_text(const WarpRequest& r) {
  if (r.op == Op::kLdmatrix) return "ldmatrix.x" + std::to_string(r.matrices);
  if (r.op == Op::kAsyncCopy) return "cp.async.g" + std::to_string(r.global_row_bytes);
  return to_string(r.op);
}

void parse_op(const std::string& text, WarpRequest& request) {
  if (text == "load" || text == "store") {
    request.op = text == "load" ? Op::kLoad : Op::kStore;
    request.matrices = 0;
  } else if (text == "ldmatrix.x1" || text == "ldmatrix.x2" || text == "ldmatrix.x4") {
    request.op = Op::kLdmatrix;
    request.matrices = text.back() - '0';
  } else if (text == "cp.async.g16" || text == "cp.async.g32" || text == "cp.async.g64" ||
             text == "cp.async.g128" || text == "cp.async.g512") {
    request.op = Op::kAsyncCopy;
    request.matrices = 0;
    request.global_row_bytes = std::stoi(text.substr(std::string("cp.async.g").size()));
  } else {
    throw InvalidRequest("operation '" + text +
                         "' is not one of load, store, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, "
                         "cp.async.g16, cp.async.g32, cp.async.g64, cp.async.g128, "
                         "cp.async.g512");
  }
}

void validate(const WarpRequest& request, std::int64_t shared_bytes) {
  const int w = request.width_bytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
    throw InvalidRequest("access width " + std::to_string(w) +
                         " bytes is not one of 1, 2, 4, 8, 16");
  }
  if (request.op == Op::kLdmatrix) {
    if (w != 16) {
      throw InvalidRequest("ldmatrix rows are 16 bytes; width " + std::to_string(w) + " given");
    }
    const int m = request.matrices;
    if (m != 1 && m != 2 && m != 4) {
      throw InvalidRequest("ldmatrix takes 1, 2 or 4 matrices; " + std::to_string(m) + " given");
    }
    for (int t = 0; t < 8 * m; ++t) {
      if (request.address[t] == kInactive) {
        throw InvalidRequest("lane " + std::to_string(t) + " gives no row address, but ldmatrix.x" +
                             std::to_string(m) + " needs rows from lanes 0-" +
                             std::to_string(8 * m - 1));
      }
    }
  }
  if (request.op == Op::kAsyncCopy) {
    const int g = request.global_row_bytes;
    if (w != 16) {
      throw InvalidRequest("the modelled cp.async copies 16 bytes; width " + std::to_string(w) +
                           " given");
    }
    if (g != 16 && g != 32 && g != 64 && g != 128 && g != 512) {
      throw InvalidRequest("cp.async global rows of " + std::to_string(g) +
                           " bytes: the model knows 16, 32, 64, 128 and 512 (contiguous)");
    }
  }
  for (int t = 0; t < kWarpSize; ++t) {
    const std::int64_t a = request.address[t];
    if (!request.active(t)) continue;
    std::ostringstream where;
    where << "lane " << t << ": address " << a;
    if (a < 0) {
      throw InvalidRequest(where.str() + " is negative (use -1 only to mark an inactive lane)");
    }
    if (a % w != 0) {
      throw InvalidRequest(where.str() + " is not aligned to the access width of " +
                           std::to_string(w) + " bytes (" + std::to_string(a % w) +
                           " bytes past a multiple of " + std::to_string(w) + ")");
    }
    // Shared memory is a 32-bit window; `end - w` rather than `a + w`, which could overflow.
    const std::int64_t end = shared_bytes > 0 ? shared_bytes : std::int64_t{1} << 32;
    if (a > end - w) {
      throw InvalidRequest(
          where.str() + " + " + std::to_string(w) + " bytes ends beyond " +
          (shared_bytes > 0 ? "the shared-memory size of " + std::to_string(shared_bytes) + " bytes"
                            : std::string("the 32-bit shared-memory window")));
    }
  }
}

namespace {

// True when every active lane's address equals that of its partner lane t ^ distance, an
// inactive partner counting as equal.
bool pairs_agree(const WarpRequest& r, int distance) {
  for (int t = 0; t < kWarpSize; ++t) {
    const int partner = t ^ distance;
    if (!r.active(t) || !r.active(partner)) continue;
    if (r.address[t] != r.address[partner]) return false;
  }
  return true;
}

}  // namespace

bool pairs_merge(const WarpRequest& request) {
  if (request.op != Op::kLoad || request.width_bytes < 8) return false;
  return pairs_agree(request, 1) || pairs_agree(request, 2);
}

namespace {

// The fewest maps c -> ((c ^ x) + 2 r) % 8 that place every (from, to) chunk position pair of
// `moves`: an exact search, branching on the maps that place the first pair not yet placed.
int fewest_maps(const std::vector<std::pair<int, int>>& moves, std::uint32_t placed, int used,
                int best) {
  if (used >= best) return best;
  std::size_t first = 0;
  while (first < moves.size() && (placed >> first & 1u)) ++first;
  if (first == moves.size()) return used;
  for (int r = 0; r < 4; ++r) {
    const int x = ((moves[first].second - 2 * r + 8) % 8) ^ moves[first].first;
    std::uint32_t more = placed;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if ((((moves[i].first ^ x) + 2 * r) % 8) == moves[i].second) more |= 1u << i;
    }
    best = fewest_maps(moves, more, used + 1, best);
  }
  return best;
}

// cp.async (see the file comment): one group per global line, each costing the fewest maps
// over the shared lines its lanes write.
Analysis analyze_async_copy(const WarpRequest& request) {
  const int lines = request.global_line(kWarpSize - 1) + 1;
  const int lanes_per_line = kWarpSize / lines;
  Analysis result;
  for (int line = 0; line < lines; ++line) {
    GroupAnalysis group;
    group.first_lane = line * lanes_per_line;
    group.lane_count = lanes_per_line;
    // One write per shared address over the whole warp: the last lane's wins (32 lanes writing
    // one address from 4 global lines took 1 wavefront).
    std::vector<int> writers;
    for (int t = group.first_lane; t < group.first_lane + lanes_per_line; ++t) {
      if (!request.active(t)) continue;
      bool overwritten = false;
      for (int later = t + 1; later < kWarpSize && !overwritten; ++later) {
        overwritten = request.active(later) && request.address[later] == request.address[t];
      }
      if (!overwritten) writers.push_back(t);
    }
    std::vector<std::int64_t> shared_lines;
    for (int t : writers) {
      const std::int64_t shared_line = request.address[t] / 128;
      if (std::find(shared_lines.begin(), shared_lines.end(), shared_line) == shared_lines.end()) {
        shared_lines.push_back(shared_line);
      }
      const std::uint64_t first_word = word_of(static_cast<std::uint64_t>(request.address[t]));
      for (std::uint64_t k = 0; k < 4; ++k) {
        group.banks[(first_word + k) % kNumBanks].push_back(WordUse{first_word + k, {t}});
      }
    }
    for (std::int64_t shared_line : shared_lines) {
      std::vector<std::pair<int, int>> moves;
      for (int t : writers) {
        if (request.address[t] / 128 != shared_line) continue;
        moves.emplace_back(request.global_chunk(t),
                           static_cast<int>(request.address[t] % 128 / 16));
      }
      group.wavefronts += fewest_maps(moves, 0, 0, static_cast<int>(moves.size()));
    }
    result.wavefronts += group.wavefronts;
    result.ways = std::max(result.ways, group.wavefronts);
    if (!writers.empty()) ++result.active_groups;
    result.groups.push_back(std::move(group));
  }
  result.ideal = result.active_groups;  // one wavefront per global line
  result.excess = 0;                    // what Nsight Compute reports for cp.async
  return result;
}

}  // namespace

int group_count(const WarpRequest& request) {
  if (request.op == Op::kLdmatrix) return 4;  // one group per 8 lanes; unused ones are empty
  if (request.op == Op::kAsyncCopy) return request.global_line(kWarpSize - 1) + 1;
  const bool merged = pairs_merge(request);
  switch (request.width_bytes) {
    case 8: return merged ? 1 : 2;
    case 16: return merged ? 2 : 4;
    default: return 1;
  }
}

Analysis analyze(const WarpRequest& request) {
  validate(request);
  if (request.op == Op::kAsyncCopy) return analyze_async_copy(request);
  const int groups = group_count(request);
  const int lanes_per_group = kWarpSize / groups;
  // A 1- or 2-byte access lies inside one word; wider accesses cover width / 4 words.
  const int words_per_lane = std::max(1, request.width_bytes / kBankWidthBytes);

  Analysis result;
  for (int g = 0; g < groups; ++g) {
    GroupAnalysis group;
    group.first_lane = g * lanes_per_group;
    group.lane_count = lanes_per_group;
    bool any_active = false;
    for (int t = group.first_lane; t < group.first_lane + lanes_per_group; ++t) {
      if (!request.active(t)) continue;
      any_active = true;
      const std::uint64_t first_word = word_of(static_cast<std::uint64_t>(request.address[t]));
      for (int k = 0; k < words_per_lane; ++k) {
        const std::uint64_t word = first_word + static_cast<std::uint64_t>(k);
        auto& served = group.banks[word % kNumBanks];
        auto it = std::find_if(served.begin(), served.end(),
                               [word](const WordUse& u) { return u.word == word; });
        if (it == served.end()) {
          served.push_back(WordUse{word, {t}});
        } else if (it->lanes.back() != t) {
          it->lanes.push_back(t);
        }
      }
    }
    for (const auto& served : group.banks) {
      group.wavefronts = std::max(group.wavefronts, static_cast<int>(served.size()));
    }
    result.wavefronts += group.wavefronts;
    result.ways = std::max(result.ways, group.wavefronts);
    if (any_active) ++result.active_groups;
    result.groups.push_back(std::move(group));
  }
  // Without conflicts every group that holds an active lane takes one wavefront.
  result.ideal = result.active_groups;
  result.excess = result.wavefronts - result.ideal;
  return result;
}

}  // namespace smem
