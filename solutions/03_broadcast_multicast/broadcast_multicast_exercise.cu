// Chapter 03 exercises: broadcast, multicast, and lookup tables. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in broadcast_multicast.cuh (do not
// modify it). Grade your work with
//     meson test -C build --suite ch03
#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

namespace ch03 {

// Exercise 1: how many wavefronts does each request take, for any stride S and group G of the
// pattern's contract?
// ---- your code: exercise 1 ----
namespace {

// The wavefronts of lane t loading `width` bytes at byte `address(t)`, by the chapter's rules:
// 1-, 2- and 4-byte loads are one group of 32 lanes; 8-byte loads one group when the lane
// pairs merge (every lane t reads the address of lane t ^ 1, or every lane that of t ^ 2: one
// kind of pair for the whole warp), else two of 16; 16-byte loads two of 16 when the pairs
// merge, else four of 8. A group costs the most distinct 4-byte words any bank holds.
template <typename Address>
int wavefronts_of(int width, Address address) {
  auto pairs_match = [&](int partner) {
    for (int t = 0; t < 32; ++t) {
      if (address(t) != address(t ^ partner)) return false;
    }
    return true;
  };
  const bool pairs = pairs_match(1) || pairs_match(2);
  int group = 32;
  if (width == 8 && !pairs) group = 16;
  if (width == 16) group = pairs ? 16 : 8;
  int total = 0;
  for (int first = 0; first < 32; first += group) {
    long long words[32 * 4];  // the distinct words this group touches
    int count = 0;
    for (int t = first; t < first + group; ++t) {
      for (int k = 0; k < (width < 4 ? 1 : width / 4); ++k) {
        const long long word = address(t) / 4 + k;
        bool seen = false;
        for (int i = 0; i < count && !seen; ++i) seen = words[i] == word;
        if (!seen) words[count++] = word;
      }
    }
    int busiest = 0;
    for (int bank = 0; bank < 32; ++bank) {
      int in_bank = 0;
      for (int i = 0; i < count; ++i) in_bank += words[i] % 32 == bank ? 1 : 0;
      busiest = in_bank > busiest ? in_bank : busiest;
    }
    total += busiest;
  }
  return total;
}

}  // namespace

// Every pattern is lane t reading element S * (t / G) of E-byte elements: the rules above give
// the wavefronts, whatever the pattern.
int predicted_wavefronts(Pattern p, PatternCase c) {
  (void)p;
  const int stride = c.stride, group = c.group;
  const int value = wavefronts_of(c.element_bytes, [&](int t) {
    return static_cast<long long>(c.element_bytes) * stride * (t / group);
  });
  // Variant 0's cases, for comparison with the rules:
  //   kBytesGrouped       c[lane / 2]         1: 16 bytes in 4 words, 2 lanes on each
  //   kBytesStrided       c[8 * lane]         2: byte stride 8 = word stride 2
  //   kBytesFarApart      c[64 * lane]       16: byte stride 64 = word stride 16
  //   kHalvesGrouped      h[lane / 4]         1: 8 halfwords in 4 words
  //   kHalvesStrided      h[16 * lane]        8: byte stride 32 = word stride 8
  //   kFloatsGrouped      a[lane / 4]         1: 8 words in 8 banks, 4 lanes each
  //   kFloatGroupsStrided a[16 * (lane / 8)]  2: words 0, 16, 32, 48: banks 0, 16, 0, 16
  //   kDoublesGrouped     d[lane / 16]        1: pairs merge: one group, 4 words
  //   kDoublePairsStrided d[2 * (lane / 2)]   2: pairs merge; 16-byte stride: 2 words a bank
  //   kFloat4Grouped      v[lane / 8]         2: pairs merge: two groups of 16, 2 float4 each
  //   kFloat4PairsStrided v[2 * (lane / 2)]   4: two groups; 32-byte stride: 2 words a bank
  switch (p) {
    case Pattern::kBytesGrouped: return value;
    case Pattern::kBytesStrided: return value;
    case Pattern::kBytesFarApart: return value;
    case Pattern::kHalvesGrouped: return value;
    case Pattern::kHalvesStrided: return value;
    case Pattern::kFloatsGrouped: return value;
    case Pattern::kFloatGroupsStrided: return value;
    case Pattern::kDoublesGrouped: return value;
    case Pattern::kDoublePairsStrided: return value;
    case Pattern::kFloat4Grouped: return value;
    case Pattern::kFloat4PairsStrided: return value;
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 2: the table's layout in shared memory, for a table of any size of the contract. As
// shipped it is the naive one (entry k in word k, one copy): random keys then collide in banks.
// Lay the table out, or replicate it, so that no key distribution makes a warp's lookups
// conflict.
// ---- your code: exercise 2 ----
// 32 copies, one per lane, interleaved so that copy t lies entirely in bank t: lane t reads
// entry k at word 32 k + t. Any keys, any lane: 32 different banks, one wavefront. Costs 32
// words an entry: 32 KiB for lookup_kernel's 256, the whole 48 KiB for the contract's 384.
__host__ __device__ int table_slot(int key, int lane, int entries) {
  (void)entries;
  return 32 * key + lane;
}

__host__ __device__ int table_words(int entries) {
  return 32 * entries;
}
// ---- end of your code ----

}  // namespace ch03
