/// @file bank_indexing.cuh
/// @brief Chapter 01 interface: what you implement in bank_indexing_exercise.cu.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// bank_indexing_exercise.cu.
#pragma once

#include <cuda_runtime.h>

/// Chapter 01: bank indexing.
namespace ch01 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;
/// Returned by pattern_address() for a pattern it does not handle yet.
constexpr unsigned kNoAddress = 0xFFFFFFFFu;

/// The access patterns of this chapter. Every array starts at byte 0 of shared memory, and
/// `lane` is the lane index 0..31 of a full warp. Each comment gives the declaration and the
/// element one lane reads.
enum class Pattern : int {
  kReversedFloats,    ///< `float a[64];`          lane reads `a[31 - lane]`
  kStride8Floats,     ///< `float a[256];`         lane reads `a[8 * lane]`
  kStructOfThree,     ///< `struct Q { float x, y, z; } q[32];` lane reads `q[lane].z`
  kColumnOf32x16,     ///< `float tile[32][16];`   lane reads `tile[lane][3]`
  kColumnOf32x34,     ///< `float tile[32][34];`   lane reads `tile[lane][1]`
  kFourFloatsShared,  ///< `float a[64];`          lane reads `a[lane % 4]`
  kFourWordsOneBank,  ///< `float a[128];`         lane reads `a[32 * (lane % 4)]`
  kBytesStride16,     ///< `unsigned char c[512];` lane reads `c[16 * lane]`
  kShortsStride64,    ///< `short s[2048];`        lane reads `s[64 * lane]`
};

/// Number of patterns in Pattern.
constexpr int kPatternCount = 9;

/// Every pattern, in order.
constexpr Pattern kAllPatterns[kPatternCount] = {
    Pattern::kReversedFloats,   Pattern::kStride8Floats, Pattern::kStructOfThree,
    Pattern::kColumnOf32x16,    Pattern::kColumnOf32x34, Pattern::kFourFloatsShared,
    Pattern::kFourWordsOneBank, Pattern::kBytesStride16, Pattern::kShortsStride64};

/// Bytes one lane reads in a pattern: sizeof the element type.
__host__ __device__ constexpr int pattern_width(Pattern p) {
  return p == Pattern::kBytesStride16 ? 1 : p == Pattern::kShortsStride64 ? 2 : 4;
}

/// The declaration and access of a pattern, as in the enum's comments (for messages).
inline const char* pattern_description(Pattern p) {
  switch (p) {
    case Pattern::kReversedFloats: return "float a[64]; lane reads a[31 - lane]";
    case Pattern::kStride8Floats: return "float a[256]; lane reads a[8 * lane]";
    case Pattern::kStructOfThree: return "struct Q { float x, y, z; } q[32]; lane reads q[lane].z";
    case Pattern::kColumnOf32x16: return "float tile[32][16]; lane reads tile[lane][3]";
    case Pattern::kColumnOf32x34: return "float tile[32][34]; lane reads tile[lane][1]";
    case Pattern::kFourFloatsShared: return "float a[64]; lane reads a[lane % 4]";
    case Pattern::kFourWordsOneBank: return "float a[128]; lane reads a[32 * (lane % 4)]";
    case Pattern::kBytesStride16: return "unsigned char c[512]; lane reads c[16 * lane]";
    case Pattern::kShortsStride64: return "short s[2048]; lane reads s[64 * lane]";
  }
  return "unknown pattern";
}

/// The lane index of the calling thread within its warp (0..31).
__device__ inline int lane_id() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// ---------------------------------------------------------------------------------------------
// The functions you write, in bank_indexing_exercise.cu.
// ---------------------------------------------------------------------------------------------

/// Exercise 1. The bank (0..31) that serves the byte at `byte_address` (a byte offset into
/// shared memory). Banks are 4 bytes wide and there are 32 of them.
__host__ __device__ int bank_of(unsigned byte_address);

/// Exercise 2. The byte offset that `lane` reads in pattern `p` (see Pattern): the array's start
/// (always 0) plus the element's offset, computed from the declaration with sizeof.
/// Return kNoAddress for a pattern you have not done yet.
__host__ __device__ unsigned pattern_address(Pattern p, int lane);

/// Exercise 3. Your prediction: how many wavefronts (passes through the banks) the warp's
/// request for pattern `p` takes. Work it out on paper from the lesson; do not compute it from
/// the addresses in code. Return kNotImplemented for a pattern you have not predicted yet.
int predicted_wavefronts(Pattern p);

/// Exercise 4. Called by all 32 lanes of a warp together, each with the byte address of its own
/// access of 1, 2 or 4 bytes; every lane returns the number of wavefronts the warp's request
/// takes: the largest number of distinct 4-byte words that any one bank must serve. Use warp
/// intrinsics (`__match_any_sync`, `__ballot_sync`, `__popc`, `__shfl_xor_sync`).
__device__ int warp_wavefronts(unsigned byte_address);

}  // namespace ch01
