// Chapter 10, reference solution (work in progress: exercises 1 and 2; the tensor-core tile of
// exercise 3 is not written yet). The contracts are in ldmatrix_swizzle.cuh.
#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"

namespace ch10 {

__host__ __device__ int swizzle(int b, int m, int s, int offset) {
  // The B bits at M + S .. M + S + B - 1, moved down by S onto bits M .. M + B - 1.
  const int mask = ((1 << b) - 1) << (m + s);
  return offset ^ ((offset & mask) >> s);
}

SwizzleParams chosen_swizzle(int row_bytes) {
  // Keep the 16 bytes of a chunk (M = 4); XOR the chunk index within a 128-byte line (3 bits
  // for 128-byte rows, the 2 bits of a 64-byte row's 4 chunks) with the line index (S = 3:
  // bits 7 and up, the row for 128-byte rows, the row pair for 64-byte rows).
  if (row_bytes == 128) return {3, 4, 3};
  if (row_bytes == 64) return {2, 4, 3};
  return {};
}

int predicted_ldmatrix_wavefronts(int row_bytes, Layout layout) {
  switch (layout) {
    case Layout::kPlain: return row_bytes == 128 ? 32 : 16;  // 8 rows in 4 banks; in 8
    case Layout::kPadded16:                                  // rows 144 or 80 bytes apart
    case Layout::kSwizzled: return 4;                        // one wavefront per matrix
  }
  return kNotImplemented;
}

}  // namespace ch10
