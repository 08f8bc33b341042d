// Chapter 07, the maintainers' probes (solution mode only: grader/tools/make_grader_unit.py
// pastes this file after the exercise and the device probes). See reference_probes.hpp.
#include "solutions/07_swizzled_transpose/reference_probes.hpp"

#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"

namespace ch07::reference_probes {

namespace {
// Chapter 05's kernel through a padded tile; with `kXor`, each tile index XORs its column with
// the run-time zero `zero` (the compiler cannot drop an XOR whose operand it does not know).
template <bool kXor>
__global__ void padded_experiment_kernel(const float* in, float* out, int rows, int cols,
                                         int zero) {
  constexpr int kPitch = kTile + 1;
  __shared__ float tile[kTile * kPitch];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int tile_row = static_cast<int>(blockIdx.x) * kTile;
  const int tile_col = static_cast<int>(blockIdx.y) * kTile;
  const auto index = [zero](int row, int col) { return row * kPitch + (kXor ? col ^ zero : col); };
#pragma unroll
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_row + j, c = tile_col + x;
    if (r < rows && c < cols) tile[index(j, x)] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kTile / kBlockRows; ++k) {
    const int j = y + k * kBlockRows;
    const int r = tile_col + j, c = tile_row + x;
    if (r < cols && c < rows) out[static_cast<long long>(r) * rows + c] = tile[index(x, j)];
  }
}

dim3 grid_of(int rows, int cols) {
  return dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile);
}
}  // namespace

void launch_padded(const float* in, float* out, int rows, int cols) {
  padded_experiment_kernel<false>
      <<<grid_of(rows, cols), dim3(kTile, kBlockRows)>>>(in, out, rows, cols, 0);
}

void launch_padded_with_xor(const float* in, float* out, int rows, int cols) {
  padded_experiment_kernel<true>
      <<<grid_of(rows, cols), dim3(kTile, kBlockRows)>>>(in, out, rows, cols, 0);
}

}  // namespace ch07::reference_probes
