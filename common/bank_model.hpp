/// @file bank_model.hpp
/// @brief How one warp's shared-memory request is split into wavefronts (host code).
///
/// The model, measured on an H200 (sm_90) and on every case of
/// `common/tests/data/h200-smem-cases.tsv`:
///
/// - Shared memory has 32 banks, each 4 bytes wide: `bank = (byte_address / 4) % 32`.
/// - A request is split into *groups* of lanes. Each group costs, in wavefronts, the largest
///   number of **distinct 4-byte words** that its active lanes touch in any one bank. Lanes that
///   touch the same word share it (broadcast on loads; on stores one write wins).
/// - 1-, 2- and 4-byte accesses: the whole warp is one group.
/// - 8-byte accesses: one group when the lane addresses are unchanged by swapping lane `t` with
///   lane `t^1`, or with lane `t^2`; otherwise two groups (lanes 0-15 and 16-31).
/// - 16-byte accesses: two groups (lanes 0-15, 16-31) under the same condition; otherwise four
///   groups of eight lanes.
/// - Groups are never repacked, and their costs add up.
/// - *Ideal* is the number of groups that have an active lane; what Nsight Compute reports as
///   bank conflicts is `wavefronts - ideal`.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

/// Shared-memory bank model and warp-request analysis.
namespace smem {

constexpr int kWarpSize = 32;           ///< Lanes in a warp.
constexpr int kNumBanks = 32;           ///< Shared-memory banks.
constexpr int kBankWidthBytes = 4;      ///< Bytes per bank word.
constexpr std::int64_t kInactive = -1;  ///< Address value that marks an inactive lane.

/// The bank that serves a byte address: `(byte_address / 4) % 32`.
constexpr int bank_of(std::uint64_t byte_address) {
  return static_cast<int>((byte_address / kBankWidthBytes) % kNumBanks);
}

/// The 4-byte word (word index from shared offset 0) that holds a byte address.
constexpr std::uint64_t word_of(std::uint64_t byte_address) {
  return byte_address / kBankWidthBytes;
}

/// Whether a warp request reads or writes shared memory.
enum class Op { kLoad, kStore };

/// Returns "load" or "store".
const char* to_string(Op op);

/// One warp-wide shared-memory instruction: one address per lane.
struct WarpRequest {
  /// Byte offset in shared memory per lane, lane 0 first; `kInactive` for an inactive lane.
  std::array<std::int64_t, kWarpSize> address{};
  int width_bytes = 4;  ///< Access width of every lane: 1, 2, 4, 8 or 16 bytes.
  Op op = Op::kLoad;    ///< Load or store.

  /// A request where lane `t` accesses `address_of(t)`; all lanes active.
  template <typename F>
  static WarpRequest from_lanes(int width, Op op, F address_of) {
    WarpRequest r;
    r.width_bytes = width;
    r.op = op;
    for (int t = 0; t < kWarpSize; ++t) r.address[t] = static_cast<std::int64_t>(address_of(t));
    return r;
  }

  /// True when lane `t` takes part in the request.
  bool active(int t) const { return address[t] != kInactive; }
};

/// Thrown when a request cannot be served: the message names the lane and the problem.
class InvalidRequest : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Checks a request and throws InvalidRequest naming what is wrong: a width other than
/// 1/2/4/8/16, a negative address other than `kInactive`, an address not aligned to the width,
/// or an access that ends beyond `shared_bytes` (when `shared_bytes` > 0).
void validate(const WarpRequest& request, std::int64_t shared_bytes = 0);

/// One distinct word served by one bank within a group, with the lanes that touch it.
struct WordUse {
  std::uint64_t word = 0;  ///< Word index (byte address / 4).
  std::vector<int> lanes;  ///< Active lanes that touch this word, ascending.
};

/// What one group of lanes costs, bank by bank.
struct GroupAnalysis {
  int first_lane = 0;  ///< First lane of the group.
  int lane_count = 0;  ///< Lanes in the group (32, 16 or 8).
  int wavefronts = 0;  ///< Max over banks of distinct words; 0 when no lane is active.
  /// For each bank, the distinct words it serves for this group, in order of first use.
  std::array<std::vector<WordUse>, kNumBanks> banks;
};

/// The cost of a whole warp request.
struct Analysis {
  int wavefronts = 0;  ///< Sum of the groups' wavefronts.
  int ideal = 0;       ///< Groups with at least one active lane: the conflict-free cost.
  /// `wavefronts - ideal`: what Nsight Compute reports as shared-memory bank conflicts.
  int excess = 0;
  /// Largest number of distinct words one bank serves within one group (the "n-way" figure).
  int ways = 0;
  std::vector<GroupAnalysis> groups;  ///< One entry per group, lane order.
};

/// Analyses a request (validated first; throws InvalidRequest if it is malformed).
Analysis analyze(const WarpRequest& request);

/// The lane groups the hardware forms for a request: 1, 2 or 4 groups of 32, 16 or 8 lanes.
int group_count(const WarpRequest& request);

}  // namespace smem
