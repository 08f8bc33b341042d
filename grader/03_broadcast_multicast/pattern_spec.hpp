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
    case Pattern::kBytesOfOneWord:
    case Pattern::kBytesStride4:
    case Pattern::kBytesStride32: return 1;
    case Pattern::kHalvesInPairs:
    case Pattern::kHalvesStride64: return 2;
    case Pattern::kFloatsByEight:
    case Pattern::kTwoFloatsOneBank: return 4;
    case Pattern::kDoubleBroadcast:
    case Pattern::kDoublesInPairs: return 8;
    case Pattern::kFloat4Broadcast:
    case Pattern::kFloat4HalfWarps: return 16;
  }
  return 4;
}

inline std::int64_t address(Pattern p, int t) {
  switch (p) {
    case Pattern::kBytesOfOneWord: return t % 4;
    case Pattern::kBytesStride4: return 4 * t;
    case Pattern::kBytesStride32: return 32 * t;
    case Pattern::kHalvesInPairs: return 2 * (t / 2);
    case Pattern::kHalvesStride64: return 2 * 64 * t;
    case Pattern::kFloatsByEight: return 4 * (t / 8);
    case Pattern::kTwoFloatsOneBank: return 4 * 32 * (t / 16);
    case Pattern::kDoubleBroadcast: return 8 * 3;
    case Pattern::kDoublesInPairs: return 8 * (t / 2);
    case Pattern::kFloat4Broadcast: return 16 * 2;
    case Pattern::kFloat4HalfWarps: return 16 * (t / 16);
  }
  return 0;
}

inline smem::WarpRequest request(Pattern p) {
  return smem::WarpRequest::from_lanes(width(p), smem::Op::kLoad,
                                       [p](int t) { return address(p, t); });
}

inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::kBytesOfOneWord: return "kBytesOfOneWord (c[lane % 4])";
    case Pattern::kBytesStride4: return "kBytesStride4 (c[4 * lane])";
    case Pattern::kBytesStride32: return "kBytesStride32 (c[32 * lane])";
    case Pattern::kHalvesInPairs: return "kHalvesInPairs (h[lane / 2])";
    case Pattern::kHalvesStride64: return "kHalvesStride64 (h[64 * lane])";
    case Pattern::kFloatsByEight: return "kFloatsByEight (a[lane / 8])";
    case Pattern::kTwoFloatsOneBank: return "kTwoFloatsOneBank (a[32 * (lane / 16)])";
    case Pattern::kDoubleBroadcast: return "kDoubleBroadcast (d[3])";
    case Pattern::kDoublesInPairs: return "kDoublesInPairs (d[lane / 2])";
    case Pattern::kFloat4Broadcast: return "kFloat4Broadcast (v[2])";
    case Pattern::kFloat4HalfWarps: return "kFloat4HalfWarps (v[lane / 16])";
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
