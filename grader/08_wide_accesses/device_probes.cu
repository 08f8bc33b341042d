// Chapter 08 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/08_wide_accesses/device_probes.hpp"

#include "chapters/08_wide_accesses/wide_accesses.cuh"

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/kernel_module.hpp"

namespace ch08::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  gpu::launch(wide_transpose_kernel, dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile),
              dim3(kBlockSide, kBlockSide), 0, in, out, rows, cols);
}

}  // namespace ch08::probes
