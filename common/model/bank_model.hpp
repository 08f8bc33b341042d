/// @file bank_model.hpp
/// @brief How one warp's shared-memory request is split into wavefronts (host code).
///
/// The model, measured on an H200 (sm_90): it reproduces every one of the workbook's measured H200
/// cases (about 1,400, hundreds of them random with inactive lanes; the maintainers' tests hold it
/// to them). `validate_bank_model` measures the workbook's cases on any GPU.
///
/// - Shared memory has 32 banks, each 4 bytes wide: `bank = (byte_address / 4) % 32`.
/// - A request is split into *groups* of lanes. Each group costs, in wavefronts, the largest
///   number of **distinct 4-byte words** that its active lanes touch in any one bank. Lanes that
///   touch the same word share it (broadcast on loads; on stores one write wins).
/// - 1-, 2- and 4-byte accesses: the whole warp is one group.
/// - 8- and 16-byte **loads**: lane pairs *merge* when every active lane's address equals that of
///   its partner `t^1`, or every active lane's equals that of its partner `t^2` (an inactive
///   partner counts as equal). Merged: one group (8 bytes) or two halves, lanes 0-15 and 16-31
///   (16 bytes). Otherwise two halves (8 bytes) or four quarters of eight lanes (16 bytes).
/// - 8- and 16-byte **stores** never merge: always two halves (8 bytes) or four quarters (16).
/// - `ldmatrix` (8x8 matrices of 16-bit elements, 1, 2 or 4 of them): lanes 8m..8m+7 give the
///   eight 16-byte row addresses of matrix m; each matrix is one group of eight lanes.
/// - Groups are never repacked, and their costs add up.
/// - *Ideal* is the number of groups that hold at least one active lane: a group without
///   conflicts takes one wavefront. Sixteen active lanes of unpaired 8-byte loads in lanes 0-15
///   are one group of two (ideal 1); a `double` stored by every lane to one address is two
///   groups (2 wavefronts, ideal 2).
/// - What Nsight Compute reports as bank conflicts is `wavefronts - ideal`. Measured on H200
///   for every case of the files above, inactive lanes and stores included.
/// - `cp.async.cg` of 16 bytes (LDGSTS, Op::kAsyncCopy) writes shared memory by another rule,
///   measured on the H200 (tools/maintainer/measurements/h200/cp-async-probe.tsv: 183 requests,
///   each with its global and shared addresses). Its wavefronts depend on where each lane's 16
///   bytes come *from*: the 128-byte global line they belong to and their chunk position c in it
///   (0-7). One wavefront writes chunks of one global line into one 128-byte shared line, all
///   moved by one map `c -> ((c ^ x) + 2 r) % 8` (an XOR of the chunk position, then a rotation
///   by whole 32-byte sectors): a request costs, over every pair of global and shared line it
///   touches, the fewest such maps that place all of its chunks. Lanes that write the same
///   shared address count once (one write wins). So a swizzle that XORs chunk positions keeps a
///   128-byte global line in one wavefront, while a row padded by 16 bytes (rotated by one
///   chunk, and crossing a shared line) takes 3; ideal is one wavefront per global line. The rule
///   reproduces 169 of the 183 measured requests, every structured one among them (rows of 32
///   to 512 bytes plain, padded, swizzled, rotated, reversed, strided, inactive lanes); on 14
///   random scatters and 48-byte pitches it is 1 or 2 wavefronts off (13 of them too low).
///   Nsight Compute's LDGSTS bank-conflict counter reads 0 for all of them, and so does
///   `excess` here: compare wavefronts with `ideal`.
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

/// What a warp request does: an ordinary load or store, an `ldmatrix` (16-byte rows), or a
/// 16-byte `cp.async.cg` from global memory (see the file comment and
/// WarpRequest::global_row_bytes).
enum class Op { kLoad, kStore, kLdmatrix, kAsyncCopy };

/// Returns "load", "store", "ldmatrix" or "cp.async".
const char* to_string(Op op);

/// One warp-wide shared-memory instruction: one address per lane.
struct WarpRequest {
  /// Byte offset in shared memory per lane, lane 0 first; `kInactive` for an inactive lane.
  std::array<std::int64_t, kWarpSize> address{};
  int width_bytes = 4;  ///< Access width of every lane: 1, 2, 4, 8 or 16 bytes.
  Op op = Op::kLoad;    ///< Load, store or ldmatrix.
  /// For Op::kLdmatrix: the number of 8x8 matrices (1, 2 or 4). Lanes 0..8*matrices-1 give row
  /// addresses; the other lanes' addresses are ignored.
  int matrices = 0;
  /// For Op::kAsyncCopy: where each lane's 16 bytes come from. Lanes read global rows of this
  /// many bytes (16, 32, 64, 128 or 512), consecutive lanes consecutive chunks: lane t reads
  /// chunk t % (n / 16) of row t / (n / 16), every row 128-byte aligned and in a line of its
  /// own. 512 is one contiguous run: lane t reads global byte 16 t.
  int global_row_bytes = 0;

  /// A request where lane `t` accesses `address_of(t)`; all lanes active.
  template <typename F>
  static WarpRequest from_lanes(int width, Op op, F address_of) {
    WarpRequest r;
    r.width_bytes = width;
    r.op = op;
    for (int t = 0; t < kWarpSize; ++t) r.address[t] = static_cast<std::int64_t>(address_of(t));
    return r;
  }

  /// An `ldmatrix.x1/.x2/.x4` request: lane `t` < 8 * `count` gives row address `row_of(t)`.
  template <typename F>
  static WarpRequest ldmatrix(int count, F row_of) {
    WarpRequest r;
    r.width_bytes = 16;
    r.op = Op::kLdmatrix;
    r.matrices = count;
    for (int t = 0; t < kWarpSize; ++t) {
      r.address[t] = t < 8 * count ? static_cast<std::int64_t>(row_of(t)) : kInactive;
    }
    return r;
  }

  /// A 16-byte `cp.async` request: lane `t` writes shared address `to(t)` with the 16 bytes of
  /// chunk t % (global_row / 16) of global row t / (global_row / 16).
  template <typename F>
  static WarpRequest async_copy(int global_row, F to) {
    WarpRequest r = from_lanes(16, Op::kAsyncCopy, to);
    r.global_row_bytes = global_row;
    return r;
  }

  /// For Op::kAsyncCopy: the 128-byte global line lane `t` reads from (numbered from 0).
  int global_line(int t) const;
  /// For Op::kAsyncCopy: lane `t`'s 16-byte chunk position within its global line (0-7).
  int global_chunk(int t) const;

  /// True when lane `t` takes part in the request.
  bool active(int t) const {
    return address[t] != kInactive && (op != Op::kLdmatrix || t < 8 * matrices);
  }

  /// "4-byte load", "16-byte store", "ldmatrix.x4", "cp.async (global rows of 128 bytes)".
  std::string describe() const;
};

/// Thrown when a request cannot be served: the message names the lane and the problem.
class InvalidRequest : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Checks a request and throws InvalidRequest naming what is wrong: a width other than
/// 1/2/4/8/16, a negative address other than `kInactive`, an address not aligned to the width,
/// an access that ends beyond `shared_bytes` (when `shared_bytes` > 0), or an ldmatrix that is
/// not 16 bytes wide, not of 1, 2 or 4 matrices, or misses a row address.
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
  int wavefronts = 0;     ///< Sum of the groups' wavefronts.
  int active_groups = 0;  ///< Groups with at least one active lane.
  /// Wavefronts the request needs without conflicts: the groups that hold an active lane
  /// (see the file comment).
  int ideal = 0;
  /// `wavefronts - ideal`: what Nsight Compute reports as shared-memory bank conflicts.
  int excess = 0;
  /// Largest number of distinct words one bank serves within one group (the "n-way" figure).
  int ways = 0;
  std::vector<GroupAnalysis> groups;  ///< One entry per group, lane order.
};

/// Analyses a request (validated first; throws InvalidRequest if it is malformed).
Analysis analyze(const WarpRequest& request);

/// True when an 8- or 16-byte load's lane pairs merge: every active lane's address equals its
/// partner's under `t^1`, or every one's under `t^2`, an inactive partner counting as equal.
/// Stores, `ldmatrix` and narrower accesses never merge.
bool pairs_merge(const WarpRequest& request);

/// The lane groups the hardware forms for a request: 1, 2 or 4 groups of 32, 16 or 8 lanes.
int group_count(const WarpRequest& request);

/// Parses "load", "store", "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4" or "cp.async.gN" (N the
/// global row bytes: 16, 32, 64, 128, 512) into `request.op` (and `request.matrices` or
/// `request.global_row_bytes`); throws InvalidRequest naming the text otherwise.
void parse_op(const std::string& text, WarpRequest& request);

/// The text parse_op() reads for the request's operation: "load", "ldmatrix.x4", "cp.async.g128".
std::string op_text(const WarpRequest& request);

}  // namespace smem
