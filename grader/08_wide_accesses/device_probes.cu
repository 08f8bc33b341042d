// Chapter 08 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "device_probes.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace ch08::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  wide_transpose_kernel<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile),
                          dim3(kBlockSide, kBlockSide)>>>(in, out, rows, cols);
}

gpu::SmemCounters count_one_tile() {
  gpu::DeviceBuffer<float> in(kTile * kTile), out(kTile * kTile);
  in.fill_bytes(0x3f);
  return gpu::measure_smem_counters([&] {
    launch_yours(in.get(), out.get(), kTile, kTile);
    GPU_CHECK(cudaGetLastError());
  });
}

}  // namespace ch08::probes
