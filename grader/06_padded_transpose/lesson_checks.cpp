// Chapter 06 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
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

TEST_CASE("ch06 lesson: the padded tile's wavefronts and the H200 numbers", "[lesson]") {
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (33 * t + 7); }) == 1);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (34 * t + 7); }) == 2);
  lesson::Figures figures;
  figures.measured("padded.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy");
  figures.measured("tiled.fraction_of_copy", "ch05_tiled_transpose", "transpose.fraction_of_copy");
  figures.measured("naive.fraction_of_copy", kMeasurementFile, "transpose.naive_fraction_of_copy");
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}
