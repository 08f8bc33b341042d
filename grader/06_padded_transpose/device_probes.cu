// Chapter 06 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/06_padded_transpose/device_probes.hpp"

#include "chapters/06_padded_transpose/padded_transpose.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch06::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  gpu::launch(padded_transpose_kernel, dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile),
              dim3(kTile, kBlockRows), 0, in, out, rows, cols);
}

}  // namespace ch06::probes
