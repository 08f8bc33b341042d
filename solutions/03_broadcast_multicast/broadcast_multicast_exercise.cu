// Chapter 03, reference solution. The contracts are in broadcast_multicast.cuh.
#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

namespace ch03 {

int predicted_wavefronts(Pattern p) {
  switch (p) {
    case Pattern::kBytesOfOneWord: return 1;    // one word, four bytes of it: multicast
    case Pattern::kBytesStride4: return 1;      // 32 words, one per bank
    case Pattern::kBytesStride32: return 8;     // words 8t: banks 0, 8, 16, 24, 8 words each
    case Pattern::kHalvesInPairs: return 1;     // 8 words, 4 lanes on each
    case Pattern::kHalvesStride64: return 32;   // 128-byte stride: all in bank 0
    case Pattern::kFloatsByEight: return 1;     // 4 words in 4 banks, 8 lanes each
    case Pattern::kTwoFloatsOneBank: return 2;  // words 0 and 32, both bank 0
    case Pattern::kDoubleBroadcast: return 1;   // lane pairs merge: one group, 2 words
    case Pattern::kDoublesInPairs: return 1;    // pairs merge: 16 doubles = 32 words
    case Pattern::kFloat4Broadcast: return 2;   // 16 bytes: at best two groups of 16 lanes
    case Pattern::kFloat4HalfWarps: return 2;   // one float4 per half-warp, two groups
  }
  return kNotImplemented;
}

// 32 copies, one per lane, interleaved so that copy t lies entirely in bank t: lane t reads
// entry k at word 32 k + t. Any keys, any lane: 32 different banks, one wavefront. Costs
// 32 x 1 KiB = 32 KiB of shared memory per block.
__host__ __device__ int table_slot(int key, int lane) {
  return 32 * key + lane;
}

__host__ __device__ int table_words() {
  return 32 * kTableEntries;
}

}  // namespace ch03
