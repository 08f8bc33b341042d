/// @file bank_indexing.cuh
/// @brief Chapter 01 interface: what you implement in bank_indexing_exercise.cu.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// bank_indexing_exercise.cu.
#pragma once

#include <cuda_runtime.h>

#include <string>

/// Chapter 01: bank indexing.
namespace ch01 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;
/// Returned by pattern_address() for a pattern it does not handle yet.
constexpr unsigned kNoAddress = 0xFFFFFFFFu;

/// The access patterns of this chapter. Every array starts at byte 0 of shared memory, and
/// `lane` is the lane index 0..31 of a full warp. Each comment gives the declaration and the
/// element one lane reads, in the parameters `n` and `m` of the pattern's case (PatternCase):
/// the grader's report lists your variant's values of them (pattern_case() gives them too).
enum class Pattern : int {
  kReversedFloats,      ///< `float a[64];`          lane reads `a[n - lane]`
  kStrideFloats,        ///< `float a[32 * n];`      lane reads `a[n * lane]`
  kStructMember,        ///< `struct Q { n floats } q[32];` lane reads member m (0 first) of
                        ///< `q[lane]`: `struct Q { float x, y, z; }` and `q[lane].z` for n = 3,
                        ///< m = 2 (members x, y, z, w up to 4 floats, else a, b, c, ...)
  kColumnOfTile,        ///< `float tile[32][n];`    lane reads `tile[lane][m]`
  kColumnOfPaddedTile,  ///< `float tile[32][n];`    lane reads `tile[lane][m]` (n is 32 + padding)
  kFewFloatsShared,     ///< `float a[64];`          lane reads `a[lane % n]`
  kWordsInOneBank,      ///< `float a[32 * n];`      lane reads `a[m + 32 * (lane % n)]`
  kBytesStride,         ///< `unsigned char c[32 * n];` lane reads `c[n * lane]`
  kShortsStride,        ///< `short s[32 * n];`      lane reads `s[n * lane]`
};

/// Number of patterns in Pattern.
constexpr int kPatternCount = 9;

/// Every pattern, in order.
constexpr Pattern kAllPatterns[kPatternCount] = {
    Pattern::kReversedFloats, Pattern::kStrideFloats,       Pattern::kStructMember,
    Pattern::kColumnOfTile,   Pattern::kColumnOfPaddedTile, Pattern::kFewFloatsShared,
    Pattern::kWordsInOneBank, Pattern::kBytesStride,        Pattern::kShortsStride};

/// One pattern with its parameters: a case of exercises 2 and 3. Your variant's case of each
/// pattern: the grader's report says it, and pattern_case() returns it.
struct PatternCase {
  Pattern pattern;  ///< which pattern
  int n;            ///< the pattern's first parameter (see Pattern)
  int m;            ///< its second, for the patterns that have one (else 0)
};

/// Your variant's case of pattern `p`, one of those the grader passes to pattern_address() and
/// predicted_wavefronts(). Host code only; the grader defines it (do not define it).
PatternCase pattern_case(Pattern p);

/// Bytes one lane reads in a pattern: sizeof the element type.
__host__ __device__ constexpr int pattern_width(Pattern p) {
  return p == Pattern::kBytesStride ? 1 : p == Pattern::kShortsStride ? 2 : 4;
}

/// The name of member `i` (0 first) of a struct of `floats` floats in kStructMember.
inline std::string struct_member_name(int floats, int i) {
  return std::string(1, floats <= 4 ? "xyzw"[i % 4] : static_cast<char>('a' + i));
}

/// The declaration and access of a case, as in Pattern's comments with its parameters (for
/// messages), e.g. "float a[256]; lane reads a[8 * lane]".
inline std::string pattern_description(const PatternCase& c) {
  const std::string n = std::to_string(c.n), m = std::to_string(c.m);
  const std::string rows = std::to_string(32 * c.n);
  switch (c.pattern) {
    case Pattern::kReversedFloats: return "float a[64]; lane reads a[" + n + " - lane]";
    case Pattern::kStrideFloats: return "float a[" + rows + "]; lane reads a[" + n + " * lane]";
    case Pattern::kStructMember: {
      std::string members;
      for (int i = 0; i < c.n; ++i) members += (i ? ", " : "") + struct_member_name(c.n, i);
      return "struct Q { float " + members + "; } q[32]; lane reads q[lane]." +
             struct_member_name(c.n, c.m);
    }
    case Pattern::kColumnOfTile:
    case Pattern::kColumnOfPaddedTile:
      return "float tile[32][" + n + "]; lane reads tile[lane][" + m + "]";
    case Pattern::kFewFloatsShared: return "float a[64]; lane reads a[lane % " + n + "]";
    case Pattern::kWordsInOneBank:
      return "float a[" + rows + "]; lane reads a[" + (c.m ? m + " + " : std::string()) +
             "32 * (lane % " + n + ")]";
    case Pattern::kBytesStride:
      return "unsigned char c[" + rows + "]; lane reads c[" + n + " * lane]";
    case Pattern::kShortsStride: return "short s[" + rows + "]; lane reads s[" + n + " * lane]";
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

/// Exercise 2. The byte offset that `lane` reads in case `c` (its pattern `c.pattern` with the
/// parameters `c.n` and `c.m`, see Pattern): the array's start (always 0) plus the element's
/// offset, computed from the declaration with sizeof, for any parameters. Return kNoAddress for
/// a pattern you have not done yet.
__host__ __device__ unsigned pattern_address(const PatternCase& c, int lane);

/// Exercise 3. Your rule: how many wavefronts (passes through the banks) the warp's request in
/// case `c` takes, for any parameters `c.n` and `c.m` of its pattern `c.pattern`. Work your
/// variant's case (the grader's report says it) and a few others out on paper, then write what
/// you found as a rule of the parameters: it is graded on your variant's case and on fresh
/// cases drawn at each run, so a number that is right for one case alone does not pass.
/// Return kNotImplemented for a pattern you have not predicted yet.
int predicted_wavefronts(const PatternCase& c);

/// Exercise 4. Called by all 32 lanes of a warp together, each with the byte address of its own
/// access of 1, 2 or 4 bytes; every lane returns the number of wavefronts the warp's request
/// takes: the largest number of distinct 4-byte words that any one bank must serve. Use warp
/// intrinsics (`__match_any_sync`, `__ballot_sync`, `__popc`, `__shfl_xor_sync`).
__device__ int warp_wavefronts(unsigned byte_address);

}  // namespace ch01
