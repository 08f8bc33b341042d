// Chapter 10, the maintainers' probes (solution mode only: grader/tools/make_grader_unit.py
// pastes this file after the exercise and the device probes). See reference_probes.hpp.
#include "solutions/10_ldmatrix_swizzle/reference_probes.hpp"

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"

namespace ch10::reference_probes {

namespace {

// Rows padded by one 16-byte chunk.
struct PaddedTile {
  static constexpr int kBytes = kTcBlock * (kTcRowBytes + 16);
  static __device__ __forceinline__ int at(int row, int chunk) {
    return row * (kTcRowBytes + 16) + 16 * chunk;
  }
};

// Swizzle<3, 4, 3> on the plain tile's byte offsets: chunk c of row r at chunk c ^ (r % 8).
struct SwizzledTile {
  static constexpr int kBytes = kTcBlock * kTcRowBytes;
  static __device__ __forceinline__ int at(int row, int chunk) {
    const int plain = row * kTcRowBytes + 16 * chunk;
    return plain ^ ((plain >> 3) & 0x70);
  }
};

}  // namespace

void launch_padded_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  ch10::probes::launch_with_tile<PaddedTile>(A, B, C, M, N, K);
}

void launch_swizzled_tile(const __half* A, const __half* B, float* C, int M, int N, int K) {
  ch10::probes::launch_with_tile<SwizzledTile>(A, B, C, M, N, K);
}

}  // namespace ch10::reference_probes
