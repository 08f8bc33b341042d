// Chapter 07 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>

#include "grader/harness/lesson_checks.hpp"

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
}  // namespace

TEST_CASE("ch07 lesson: the swizzled tile's wavefronts and the H200 numbers", "[lesson]") {
  for (int r = 0; r < 32; ++r) {  // rows and columns of tile[r][c ^ r] are conflict-free
    CHECK(lesson::wavefronts_of(4, [r](int t) { return 4LL * (32 * r + (t ^ r)); }) == 1);
    CHECK(lesson::wavefronts_of(4, [r](int t) { return 4LL * (32 * t + (r ^ t)); }) == 1);
  }
  lesson::Figures figures;
  figures.measured("swizzled.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy");
  figures.measured("padded.fraction_of_copy", "ch06_padded_transpose", "transpose.fraction_of_copy");
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}
