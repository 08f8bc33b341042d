// Chapter 03: the grader's own statement of each pattern, and of the key distributions.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/model/bank_model.hpp"

namespace ch03::spec {

/// Width in bytes and the byte address of lane t, straight from the declarations.
inline int width(Pattern p) {
  switch (p) {
    case Pattern::kBytesInPairs:
    case Pattern::kBytesStride8:
    case Pattern::kBytesStride64: return 1;
    case Pattern::kHalvesByFour:
    case Pattern::kHalvesStride16: return 2;
    case Pattern::kFloatsByFour:
    case Pattern::kFourFloatsTwoBanks: return 4;
    case Pattern::kDoublesHalfWarps:
    case Pattern::kDoublePairsStride2: return 8;
    case Pattern::kFloat4ByEight:
    case Pattern::kFloat4PairsStride2: return 16;
  }
  return 4;
}

inline std::int64_t address(Pattern p, int t) {
  switch (p) {
    case Pattern::kBytesInPairs: return t / 2;
    case Pattern::kBytesStride8: return 8 * t;
    case Pattern::kBytesStride64: return 64 * t;
    case Pattern::kHalvesByFour: return 2 * (t / 4);
    case Pattern::kHalvesStride16: return 2 * 16 * t;
    case Pattern::kFloatsByFour: return 4 * (t / 4);
    case Pattern::kFourFloatsTwoBanks: return 4 * 16 * (t / 8);
    case Pattern::kDoublesHalfWarps: return 8 * (t / 16);
    case Pattern::kDoublePairsStride2: return 8 * 2 * (t / 2);
    case Pattern::kFloat4ByEight: return 16 * (t / 8);
    case Pattern::kFloat4PairsStride2: return 16 * 2 * (t / 2);
  }
  return 0;
}

inline smem::WarpRequest request(Pattern p) {
  return smem::WarpRequest::from_lanes(width(p), smem::Op::kLoad,
                                       [p](int t) { return address(p, t); });
}

inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::kBytesInPairs: return "kBytesInPairs (c[lane / 2])";
    case Pattern::kBytesStride8: return "kBytesStride8 (c[8 * lane])";
    case Pattern::kBytesStride64: return "kBytesStride64 (c[64 * lane])";
    case Pattern::kHalvesByFour: return "kHalvesByFour (h[lane / 4])";
    case Pattern::kHalvesStride16: return "kHalvesStride16 (h[16 * lane])";
    case Pattern::kFloatsByFour: return "kFloatsByFour (a[lane / 4])";
    case Pattern::kFourFloatsTwoBanks: return "kFourFloatsTwoBanks (a[16 * (lane / 8)])";
    case Pattern::kDoublesHalfWarps: return "kDoublesHalfWarps (d[lane / 16])";
    case Pattern::kDoublePairsStride2: return "kDoublePairsStride2 (d[2 * (lane / 2)])";
    case Pattern::kFloat4ByEight: return "kFloat4ByEight (v[lane / 8])";
    case Pattern::kFloat4PairsStride2: return "kFloat4PairsStride2 (v[2 * (lane / 2)])";
  }
  return "?";
}

/// The key distributions a lookup table must survive.
enum class Keys { kUniform, kConstant, kFew, kSequential, kSkewed };
constexpr Keys kAllKeys[] = {Keys::kUniform, Keys::kConstant, Keys::kFew, Keys::kSequential,
                             Keys::kSkewed};

inline const char* name(Keys k) {
  switch (k) {
    case Keys::kUniform: return "uniform keys";
    case Keys::kConstant: return "one key for all";
    case Keys::kFew: return "four distinct keys";
    case Keys::kSequential: return "sequential keys";
    case Keys::kSkewed: return "skewed keys (80% among 8)";
  }
  return "?";
}

/// `n` keys drawn from distribution `k` with `rng`.
inline std::vector<unsigned char> draw_keys(Keys k, std::size_t n, std::mt19937_64& rng) {
  std::vector<unsigned char> keys(n);
  const unsigned offset = static_cast<unsigned>(rng() % 256);
  unsigned few[4];
  for (unsigned& f : few) f = static_cast<unsigned>(rng() % 256);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned key = 0;
    switch (k) {
      case Keys::kUniform: key = static_cast<unsigned>(rng()); break;
      case Keys::kConstant: key = offset; break;
      case Keys::kFew: key = few[rng() % 4]; break;
      case Keys::kSequential: key = offset + static_cast<unsigned>(i); break;
      case Keys::kSkewed:
        key = rng() % 5 < 4 ? offset + rng() % 8 : static_cast<unsigned>(rng());
        break;
    }
    keys[i] = static_cast<unsigned char>(key & 255u);
  }
  return keys;
}

}  // namespace ch03::spec
