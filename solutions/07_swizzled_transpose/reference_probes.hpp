// Chapter 07, the maintainers' probes: the kernels of the lesson's XOR experiment, which a
// hand-out must not hold (the padded tile is chapter 06's answer).
#pragma once

namespace ch07::reference_probes {

/// The lesson's experiment, with the grader's own kernels (chapter 05's contract): the padded
/// tile of chapter 06 (rows of 33 words), and the same tile with every shared access's column
/// XORed with `zero`, a kernel argument that is 0 at run time, so the XOR is executed but moves
/// nothing. Launch only.
void launch_padded(const float* in, float* out, int rows, int cols);
void launch_padded_with_xor(const float* in, float* out, int rows, int cols);

}  // namespace ch07::reference_probes
