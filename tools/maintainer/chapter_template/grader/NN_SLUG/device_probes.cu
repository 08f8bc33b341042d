// Chapter @NN@ device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/@NN@_@SLUG@/device_probes.hpp"

#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"
#include "common/cuda/kernel_module.hpp"

namespace ch@NN@::probes {

// gpu::launch, never <<<>>>: the judge runs the GPU checks apart from the student's code and
// launches the kernel of the student's kernels file that has this kernel's name.
void launch_yours(const float* in, float* out, int rows, int cols) {
  gpu::launch(transpose_kernel, dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile),
              dim3(kTile, kBlockRows), 0, in, out, rows, cols);
}

}  // namespace ch@NN@::probes
