// Chapter 05 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/05_tiled_transpose/device_probes.hpp"

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch05::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  gpu::launch(tiled_transpose_kernel, dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile),
              dim3(kTile, kBlockRows), 0, in, out, rows, cols);
}

}  // namespace ch05::probes
