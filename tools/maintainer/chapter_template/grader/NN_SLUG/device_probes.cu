// Chapter @NN@ device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit, so that these kernels can call its
// device functions.
#include "grader/@NN@_@SLUG@/device_probes.hpp"

#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"

namespace ch@NN@::probes {

void launch_yours(const float* in, float* out, int rows, int cols) {
  transpose_kernel<<<dim3((rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile),
                     dim3(kTile, kBlockRows)>>>(in, out, rows, cols);
}

}  // namespace ch@NN@::probes
