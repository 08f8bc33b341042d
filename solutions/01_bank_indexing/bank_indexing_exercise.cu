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
    case Pattern::kContiguousFloats: return 4 * t;
    case Pattern::kStride2Floats: return 4 * (2 * t);
    case Pattern::kStructField: return 16 * t + 4;          // sizeof(P) = 16, offsetof(y) = 4
    case Pattern::kColumnOf32x32: return 4 * (32 * t + 5);  // row pitch 32 floats
    case Pattern::kColumnOf32x33: return 4 * (33 * t + 5);  // row pitch 33 floats
    case Pattern::kSameFloat: return 4 * 7;
    case Pattern::kTwoWordsOneBank: return 4 * (32 * (t % 2));
    case Pattern::kBytes: return t;
    case Pattern::kShortsStride64: return 2 * (64 * t);
  }
  return kNoAddress;
}

int predicted_wavefronts(Pattern p) {
  switch (p) {
    case Pattern::kContiguousFloats: return 1;  // 32 words in 32 banks
    case Pattern::kStride2Floats: return 2;     // even banks only, two words each
    case Pattern::kStructField: return 4;       // stride 4 words: banks 1, 5, ..., 29, 4 each
    case Pattern::kColumnOf32x32: return 32;    // pitch 128 B: all 32 words in bank 5
    case Pattern::kColumnOf32x33: return 1;     // pitch 33 words: banks 5, 6, ..., one each
    case Pattern::kSameFloat: return 1;         // one word, broadcast
    case Pattern::kTwoWordsOneBank: return 2;   // words 0 and 32, both in bank 0
    case Pattern::kBytes: return 1;             // 8 words, 4 lanes share each
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
