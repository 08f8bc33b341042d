// Chapter 03, reference solution. The contracts are in broadcast_multicast.cuh.
#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"

namespace ch03 {

int predicted_wavefronts(Pattern p) {
  switch (p) {
    case Pattern::kBytesInPairs: return 1;        // 16 bytes in 4 words, 2 lanes on each
    case Pattern::kBytesStride8: return 2;        // byte stride 8 = word stride 2
    case Pattern::kBytesStride64: return 16;      // byte stride 64 = word stride 16
    case Pattern::kHalvesByFour: return 1;        // 8 halfwords in 4 words
    case Pattern::kHalvesStride16: return 8;      // byte stride 32 = word stride 8
    case Pattern::kFloatsByFour: return 1;        // 8 words in 8 banks, 4 lanes each
    case Pattern::kFourFloatsTwoBanks: return 2;  // words 0, 16, 32, 48: banks 0, 16, 0, 16
    case Pattern::kDoublesHalfWarps: return 1;    // pairs merge: one group, 4 words
    case Pattern::kDoublePairsStride2: return 2;  // pairs merge; 16-byte stride: 2 words per bank
    case Pattern::kFloat4ByEight: return 2;       // pairs merge: two groups of 16, 2 float4 each
    case Pattern::kFloat4PairsStride2: return 4;  // two groups; 32-byte stride: 2 words per bank
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
