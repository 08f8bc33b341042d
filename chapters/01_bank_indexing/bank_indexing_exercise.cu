// Chapter 01 exercises: bank indexing. This is the file you edit.
//
// Read README.md in this folder first. The contracts of the four functions are in
// bank_indexing.cuh (do not modify that one). Grade your work with
//     meson test -C build --suite ch01
// The host checks grade exercises 1-3 without a GPU; the GPU checks run exercise 4 and time
// your patterns.
#include "chapters/01_bank_indexing/bank_indexing.cuh"

namespace ch01 {

// Exercise 1: the bank of a byte address.
// ---- your code: exercise 1 ----
__host__ __device__ int bank_of(unsigned byte_address) {
  (void)byte_address;
  return kNotImplemented;  // TODO: 32 banks, 4 bytes wide.
}
// ---- end of your code ----

// Exercise 2: the byte address each lane reads. Work from the declarations in Pattern's
// comments, for any parameters c.n and c.m: element offset = index * sizeof(element); a row of
// tile[R][C] is C elements.
// ---- your code: exercise 2 ----
__host__ __device__ unsigned pattern_address(const PatternCase& c, int lane) {
  (void)lane;
  switch (c.pattern) {
    case Pattern::kReversedFloats:      // TODO
    case Pattern::kStrideFloats:        // TODO
    case Pattern::kStructMember:        // TODO
    case Pattern::kColumnOfTile:        // TODO
    case Pattern::kColumnOfPaddedTile:  // TODO
    case Pattern::kFewFloatsShared:     // TODO
    case Pattern::kWordsInOneBank:      // TODO
    case Pattern::kBytesStride:         // TODO
    case Pattern::kShortsStride:        // TODO
      break;
  }
  return kNoAddress;
}
// ---- end of your code ----

// Exercise 3: your predictions, worked out on paper for your variant's cases (the grader's
// report lists them) and written as a rule for any case of each pattern. How many wavefronts
// does each request take?
// ---- your code: exercise 3 ----
int predicted_wavefronts(const PatternCase& c) {
  switch (c.pattern) {
    case Pattern::kReversedFloats: return kNotImplemented;      // TODO
    case Pattern::kStrideFloats: return kNotImplemented;        // TODO
    case Pattern::kStructMember: return kNotImplemented;        // TODO
    case Pattern::kColumnOfTile: return kNotImplemented;        // TODO
    case Pattern::kColumnOfPaddedTile: return kNotImplemented;  // TODO
    case Pattern::kFewFloatsShared: return kNotImplemented;     // TODO
    case Pattern::kWordsInOneBank: return kNotImplemented;      // TODO
    case Pattern::kBytesStride: return kNotImplemented;         // TODO
    case Pattern::kShortsStride: return kNotImplemented;        // TODO
  }
  return kNotImplemented;
}
// ---- end of your code ----

// Exercise 4: the warp counts its own wavefronts. All 32 lanes call this together, each with its
// own address, and each must return the request's wavefronts: as many as the busiest bank has
// distinct words to serve. Plan it with the warp intrinsics of section 6 (no shared memory
// needed).
// ---- your code: exercise 4 ----
__device__ int warp_wavefronts(unsigned byte_address) {
  (void)byte_address;
  return kNotImplemented;  // TODO
}
// ---- end of your code ----

}  // namespace ch01
