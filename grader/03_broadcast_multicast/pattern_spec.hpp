// Chapter 03: the grader's own statement of each pattern (with the variant's strides and
// groups), and of the key distributions.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/variant.hpp"

namespace ch03::spec {

/// Width in bytes of an element of pattern `p`, straight from the declarations.
inline int width(Pattern p) {
  switch (p) {
    case Pattern::kBytesGrouped:
    case Pattern::kBytesStrided:
    case Pattern::kBytesFarApart: return 1;
    case Pattern::kHalvesGrouped:
    case Pattern::kHalvesStrided: return 2;
    case Pattern::kFloatsGrouped:
    case Pattern::kFloatGroupsStrided: return 4;
    case Pattern::kDoublesGrouped:
    case Pattern::kDoublePairsStrided: return 8;
    case Pattern::kFloat4Grouped:
    case Pattern::kFloat4PairsStrided: return 16;
  }
  return 4;
}

/// The enumerator's name, "kBytesStrided".
inline const char* enumerator(Pattern p) {
  switch (p) {
    case Pattern::kBytesGrouped: return "kBytesGrouped";
    case Pattern::kBytesStrided: return "kBytesStrided";
    case Pattern::kBytesFarApart: return "kBytesFarApart";
    case Pattern::kHalvesGrouped: return "kHalvesGrouped";
    case Pattern::kHalvesStrided: return "kHalvesStrided";
    case Pattern::kFloatsGrouped: return "kFloatsGrouped";
    case Pattern::kFloatGroupsStrided: return "kFloatGroupsStrided";
    case Pattern::kDoublesGrouped: return "kDoublesGrouped";
    case Pattern::kDoublePairsStrided: return "kDoublePairsStrided";
    case Pattern::kFloat4Grouped: return "kFloat4Grouped";
    case Pattern::kFloat4PairsStrided: return "kFloat4PairsStrided";
  }
  return "?";
}

/// The workbook's own case of `p` (variant 0), as the interface's brackets say.
inline PatternCase committed_case(Pattern p) {
  const int w = width(p);
  switch (p) {
    case Pattern::kBytesGrouped: return {w, 1, 2};
    case Pattern::kBytesStrided: return {w, 8, 1};
    case Pattern::kBytesFarApart: return {w, 64, 1};
    case Pattern::kHalvesGrouped: return {w, 1, 4};
    case Pattern::kHalvesStrided: return {w, 16, 1};
    case Pattern::kFloatsGrouped: return {w, 1, 4};
    case Pattern::kFloatGroupsStrided: return {w, 16, 8};
    case Pattern::kDoublesGrouped: return {w, 1, 16};
    case Pattern::kDoublePairsStrided: return {w, 2, 2};
    case Pattern::kFloat4Grouped: return {w, 1, 8};
    case Pattern::kFloat4PairsStrided: return {w, 2, 2};
  }
  return {w, 1, 1};
}

/// A case of every pattern from `d` (a class variant's, or fresh ones: fresh_draw).
inline std::array<PatternCase, kPatternCount> drawn_cases(grader::variant::Draw& d) {
  std::array<PatternCase, kPatternCount> out{};
  for (int i = 0; i < kPatternCount; ++i) out[i] = committed_case(kAllPatterns[i]);
  auto strided = [&](Pattern p, int stride) { out[static_cast<int>(p)].stride = stride; };
  auto grouped = [&](Pattern p, int group) { out[static_cast<int>(p)].group = group; };
  grouped(Pattern::kBytesGrouped, d.between(2, 8));  // 4 to 8 words, 1 each
  strided(Pattern::kBytesStrided, d.pick(std::vector<int>{8, 12, 16, 20, 24, 28}));  // < 32 B
  strided(Pattern::kBytesFarApart, 4 * d.between(9, 31));  // 36 to 124 bytes
  grouped(Pattern::kHalvesGrouped, d.between(3, 7));
  strided(Pattern::kHalvesStrided, 2 * d.between(2, 24));  // 4 to 48 halfwords
  grouped(Pattern::kFloatsGrouped, d.between(2, 7));
  strided(Pattern::kFloatGroupsStrided, d.between(2, 32));
  grouped(Pattern::kFloatGroupsStrided, d.pick(std::vector<int>{2, 4, 8}));
  grouped(Pattern::kDoublesGrouped, d.between(3, 16));  // odd: pairs do not merge
  strided(Pattern::kDoublePairsStrided, d.between(2, 16));
  grouped(Pattern::kFloat4Grouped, d.between(2, 12));  // odd: pairs do not merge
  strided(Pattern::kFloat4PairsStrided, d.between(2, 16));
  return out;
}

/// Variant `v`'s case of every pattern, in the order of kAllPatterns. Variant 0: the committed
/// cases. A class variant draws each stride and group from a range that keeps the pattern what
/// its name says and leaves out every access the lesson works or draws (its tables: c[4 * lane],
/// c[160 * lane], h[lane / 2], h[64 * lane], d[lane / 2], v[lane / 16], one double or float4 for
/// all; its analyser examples: h[lane / 8], c[128 * lane], a[lane / 8], a[32 * (lane / 16)]).
inline std::array<PatternCase, kPatternCount> cases(const grader::variant::Identity& v) {
  if (!v.self_study()) {
    grader::variant::Draw d(v, "ch03");
    return drawn_cases(d);
  }
  std::array<PatternCase, kPatternCount> out{};
  for (int i = 0; i < kPatternCount; ++i) out[i] = committed_case(kAllPatterns[i]);
  return out;
}

/// The byte address of lane t in case `c`.
inline std::int64_t address(const PatternCase& c, int t) {
  return static_cast<std::int64_t>(c.element_bytes) * c.stride * (t / c.group);
}

/// The warp's request in case `c`.
inline smem::WarpRequest request(const PatternCase& c) {
  return smem::WarpRequest::from_lanes(c.element_bytes, smem::Op::kLoad,
                                       [c](int t) { return address(c, t); });
}

/// The access as the interface writes it, with the case's numbers: "c[8 * lane]",
/// "h[lane / 4]", "a[16 * (lane / 8)]".
inline std::string access(const PatternCase& c) {
  const char* array = c.element_bytes == 1   ? "c"
                      : c.element_bytes == 2 ? "h"
                      : c.element_bytes == 4 ? "a"
                      : c.element_bytes == 8 ? "d"
                                             : "v";
  const std::string s = std::to_string(c.stride), g = std::to_string(c.group);
  if (c.group == 1) return std::string(array) + "[" + s + " * lane]";
  if (c.stride == 1) return std::string(array) + "[lane / " + g + "]";
  return std::string(array) + "[" + s + " * (lane / " + g + ")]";
}

/// The element type's declaration, "unsigned char c[]".
inline std::string declaration(const PatternCase& c) {
  switch (c.element_bytes) {
    case 1: return "unsigned char c[]";
    case 2: return "short h[]";
    case 4: return "float a[]";
    case 8: return "double d[]";
    default: return "float4 v[]";
  }
}

/// "kBytesStrided (c[8 * lane])": the pattern with its case.
inline std::string name(Pattern p, const PatternCase& c) {
  return std::string(enumerator(p)) + " (" + access(c) + ")";
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
