// Chapter 04 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/04_tile_columns/device_probes.hpp"

#include "chapters/04_tile_columns/tile_columns.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/kernel_module.hpp"
#include "common/cuda/random_fill.hpp"
#include "grader/harness/speed.hpp"

namespace ch04::probes {

namespace probe_code {

// The baseline: the same staging and warp sums with an unpadded float[32][32] tile, so every
// column read is 32-way. It moves whole tiles only (the grader times it on 8192 x 8192 floats)
// and does nothing for any other matrix: no answer to exercise 2, whose contract has tails.
__global__ void unpadded_column_sums_kernel(const float* m, float* out, int rows, int cols) {
  if (rows % kTile != 0 || cols % kTile != 0) return;
  __shared__ float tile[kTile][kTile];
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int column = static_cast<int>(blockIdx.x) * kTile + x;
  for (int r = y; r < kTile; r += kBlockRows) {
    tile[r][x] =
        m[static_cast<long long>(static_cast<int>(blockIdx.y) * kTile + r) * cols + column];
  }
  __syncthreads();
  for (int c = y; c < kTile; c += kBlockRows) {
    float sum = tile[x][c];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    if (x == 0) out[static_cast<long long>(blockIdx.y) * cols + blockIdx.x * kTile + c] = sum;
  }
}

dim3 grid_for(int rows, int cols) {
  return dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
}

size_t your_shared_bytes() {
  const int pitch = padded_pitch(4, kTile);
  return pitch > 0 ? static_cast<size_t>(kTile) * pitch * sizeof(float) : 0;
}

}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

std::vector<float> block_column_sums(const std::vector<float>& m, int rows, int cols) {
  gpu::DeviceBuffer<float> in(m);
  gpu::DeviceBuffer<float> out(static_cast<size_t>((rows + kTile - 1) / kTile) * cols);
  out.fill_bytes(0xff);  // NaN
  gpu::launch(block_column_sums_kernel, grid_for(rows, cols), dim3(kTile, kBlockRows),
              your_shared_bytes(), in.get(), out.get(), rows, cols);
  GPU_CHECK_KERNEL("block_column_sums_kernel (yours)");
  return out.download();
}

gpu::SmemCounters count_one_block() {
  std::vector<float> host(static_cast<size_t>(kTile) * kTile, 1.0f);
  gpu::DeviceBuffer<float> in(host);
  gpu::DeviceBuffer<float> out(kTile);
  return gpu::measure_smem_counters([&] {
    gpu::launch(block_column_sums_kernel, 1, dim3(kTile, kBlockRows), your_shared_bytes(), in.get(),
                out.get(), kTile, kTile);
    GPU_CHECK(cudaGetLastError());
  });
}

ColumnSumTimes time_block_column_sums(int rows, int cols) {
  gpu::DeviceBuffer<float> in(static_cast<size_t>(rows) * cols);
  gpu::random_floats(in.get(), static_cast<long long>(rows) * cols, 11);
  gpu::DeviceBuffer<float> out(static_cast<size_t>((rows + kTile - 1) / kTile) * cols);
  ColumnSumTimes t;
  t.bytes = (static_cast<double>(rows) * cols + static_cast<double>(out.size())) * sizeof(float);
  t.yours_ms =
      grader::time_kernel(
          "block_column_sums_kernel (yours)",
          [&] {
            gpu::launch(block_column_sums_kernel, grid_for(rows, cols), dim3(kTile, kBlockRows),
                        your_shared_bytes(), in.get(), out.get(), rows, cols);
          },
          t.bytes)
          .median_ms;
  t.unpadded_ms = grader::time_kernel(
                      "unpadded_column_sums_kernel",
                      [&] {
                        gpu::launch(unpadded_column_sums_kernel, grid_for(rows, cols),
                                    dim3(kTile, kBlockRows), 0, in.get(), out.get(), rows, cols);
                      },
                      t.bytes)
                      .median_ms;
  t.copy_ms = grader::time_copy(t.bytes).median_ms;
  return t;
}

}  // namespace ch04::probes
