// Chapter 01, reference solution. The contracts are in bank_indexing.cuh.
#include "chapters/01_bank_indexing/bank_indexing.cuh"

namespace ch01 {

__host__ __device__ int bank_of(unsigned byte_address) {
  // 4-byte words, dealt out to the 32 banks in turn.
  return static_cast<int>((byte_address / 4) % 32);
}

__host__ __device__ unsigned pattern_address(Pattern p, int lane) {
  const unsigned t = static_cast<unsigned>(lane);
  switch (p) {
    case Pattern::kReversedFloats: return 4 * (31 - t);
    case Pattern::kStride8Floats: return 4 * (8 * t);
    case Pattern::kStructOfThree: return 12 * t + 8;        // sizeof(Q) = 12, offsetof(z) = 8
    case Pattern::kColumnOf32x16: return 4 * (16 * t + 3);  // row pitch 16 floats
    case Pattern::kColumnOf32x34: return 4 * (34 * t + 1);  // row pitch 34 floats
    case Pattern::kFourFloatsShared: return 4 * (t % 4);
    case Pattern::kFourWordsOneBank: return 4 * (32 * (t % 4));
    case Pattern::kBytesStride16: return 16 * t;
    case Pattern::kShortsStride64: return 2 * (64 * t);
  }
  return kNoAddress;
}

int predicted_wavefronts(Pattern p) {
  switch (p) {
    case Pattern::kReversedFloats: return 1;    // 32 words in 32 banks, in reverse order
    case Pattern::kStride8Floats: return 8;     // banks 0, 8, 16, 24, eight words each
    case Pattern::kStructOfThree: return 1;     // stride 3 words: 3 t % 32 hits every bank once
    case Pattern::kColumnOf32x16: return 16;    // pitch 64 B: banks 3 and 19, 16 words each
    case Pattern::kColumnOf32x34: return 2;     // pitch 34 words: odd banks, two words each
    case Pattern::kFourFloatsShared: return 1;  // four words in four banks, eight lanes each
    case Pattern::kFourWordsOneBank: return 4;  // words 0, 32, 64, 96: all bank 0
    case Pattern::kBytesStride16: return 4;     // byte stride 16 = word stride 4
    case Pattern::kShortsStride64: return 32;   // pitch 128 B again
  }
  return kNotImplemented;
}

__device__ int warp_wavefronts(unsigned byte_address) {
  constexpr unsigned kFullWarp = 0xFFFFFFFFu;
  const unsigned word = byte_address / 4;
  const unsigned same_bank = __match_any_sync(kFullWarp, word % 32);  // lanes in my bank
  const unsigned same_word = __match_any_sync(kFullWarp, word);       // lanes on my word
  // Count each distinct word once: through the lowest lane that touches it.
  const bool word_leader = (__ffs(same_word) - 1) == lane_id();
  const unsigned leaders = __ballot_sync(kFullWarp, word_leader);
  int words_in_my_bank = __popc(same_bank & leaders);
  for (int offset = 16; offset > 0; offset /= 2) {
    words_in_my_bank = max(words_in_my_bank, __shfl_xor_sync(kFullWarp, words_in_my_bank, offset));
  }
  return words_in_my_bank;
}

}  // namespace ch01
