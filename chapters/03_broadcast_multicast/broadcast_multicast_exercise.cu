// Chapter 03 exercises: broadcast, multicast, and lookup tables. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in broadcast_multicast.cuh (do not
// modify it). Grade your work with
//     meson test -C build --suite ch03
#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

namespace ch03 {

// Exercise 1: how many wavefronts does each request take?
int predicted_wavefronts(Pattern p) {
  switch (p) {
    case Pattern::kBytesOfOneWord: return kNotImplemented;    // TODO
    case Pattern::kBytesStride4: return kNotImplemented;      // TODO
    case Pattern::kBytesStride32: return kNotImplemented;     // TODO
    case Pattern::kHalvesInPairs: return kNotImplemented;     // TODO
    case Pattern::kHalvesStride64: return kNotImplemented;    // TODO
    case Pattern::kFloatsByEight: return kNotImplemented;     // TODO
    case Pattern::kTwoFloatsOneBank: return kNotImplemented;  // TODO
    case Pattern::kDoubleBroadcast: return kNotImplemented;   // TODO
    case Pattern::kDoublesInPairs: return kNotImplemented;    // TODO
    case Pattern::kFloat4Broadcast: return kNotImplemented;   // TODO
    case Pattern::kFloat4HalfWarps: return kNotImplemented;   // TODO
  }
  return kNotImplemented;
}

// Exercise 2: the table's layout in shared memory. As shipped it is the naive one (entry k in
// word k, one copy): random keys then collide in banks. Lay the table out, or replicate it, so
// that no key distribution makes a warp's lookups conflict.
__host__ __device__ int table_slot(int key, int lane) {
  (void)lane;
  return key;
}

__host__ __device__ int table_words() {
  return kTableEntries;
}

}  // namespace ch03
