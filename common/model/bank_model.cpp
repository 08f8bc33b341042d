#include "common/model/bank_model.hpp"

#include <algorithm>
#include <sstream>

namespace smem {

const char* to_string(Op op) {
  switch (op) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kLdmatrix: return "ldmatrix";
  }
  return "?";
}

std::string WarpRequest::describe() const {
  if (op == Op::kLdmatrix) return "ldmatrix.x" + std::to_string(matrices);
  return std::to_string(width_bytes) + "-byte " + to_string(op);
}

void parse_op(const std::string& text, WarpRequest& request) {
  if (text == "load" || text == "store") {
    request.op = text == "load" ? Op::kLoad : Op::kStore;
    request.matrices = 0;
  } else if (text == "ldmatrix.x1" || text == "ldmatrix.x2" || text == "ldmatrix.x4") {
    request.op = Op::kLdmatrix;
    request.matrices = text.back() - '0';
  } else {
    throw InvalidRequest("operation '" + text +
                         "' is not one of load, store, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4");
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
    if (shared_bytes > 0 && a + w > shared_bytes) {
      throw InvalidRequest(where.str() + " + " + std::to_string(w) +
                           " bytes ends beyond the shared-memory size of " +
                           std::to_string(shared_bytes) + " bytes");
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

int group_count(const WarpRequest& request) {
  if (request.op == Op::kLdmatrix) return 4;  // one group per 8 lanes; unused ones are empty
  const bool merged = pairs_merge(request);
  switch (request.width_bytes) {
    case 8: return merged ? 1 : 2;
    case 16: return merged ? 2 : 4;
    default: return 1;
  }
}

Analysis analyze(const WarpRequest& request) {
  validate(request);
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
