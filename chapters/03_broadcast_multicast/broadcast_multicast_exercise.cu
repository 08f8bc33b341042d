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
int predicted_wavefronts(Pattern p, PatternCase c) {
  (void)c;
  switch (p) {
    case Pattern::kBytesGrouped: return kNotImplemented;        // TODO
    case Pattern::kBytesStrided: return kNotImplemented;        // TODO
    case Pattern::kBytesFarApart: return kNotImplemented;       // TODO
    case Pattern::kHalvesGrouped: return kNotImplemented;       // TODO
    case Pattern::kHalvesStrided: return kNotImplemented;       // TODO
    case Pattern::kFloatsGrouped: return kNotImplemented;       // TODO
    case Pattern::kFloatGroupsStrided: return kNotImplemented;  // TODO
    case Pattern::kDoublesGrouped: return kNotImplemented;      // TODO
    case Pattern::kDoublePairsStrided: return kNotImplemented;  // TODO
    case Pattern::kFloat4Grouped: return kNotImplemented;       // TODO
    case Pattern::kFloat4PairsStrided: return kNotImplemented;  // TODO
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 2: the table's layout in shared memory, for a table of any size of the contract. As
// shipped it is the naive one (entry k in word k, one copy): random keys then collide in banks.
// Lay the table out, or replicate it, so that no key distribution makes a warp's lookups
// conflict.
// ---- your code: exercise 2 ----
__host__ __device__ int table_slot(int key, int lane, int entries) {
  (void)lane;
  (void)entries;
  return key;
}

__host__ __device__ int table_words(int entries) {
  return entries;
}
// ---- end of your code ----

}  // namespace ch03
