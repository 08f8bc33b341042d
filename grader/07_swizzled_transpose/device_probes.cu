// Chapter 07 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/07_swizzled_transpose/device_probes.hpp"

#include "chapters/07_swizzled_transpose/swizzled_transpose.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch07::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  gpu::launch(swizzled_transpose_kernel,
              dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile), dim3(kTile, kBlockRows),
              0, in, out, rows, cols);
}

cudaFuncAttributes attributes() {
  cudaFuncAttributes a{};
  GPU_CHECK(cudaFuncGetAttributes(&a, gpu::launched(swizzled_transpose_kernel)));
  return a;
}

}  // namespace ch07::probes
