// Chapter 05 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
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

TEST_CASE("ch05 lesson: the tile's wavefronts and the H200 numbers", "[lesson]") {
  // The tile store of a row is one wavefront, the load of a column 32.
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (5 * 32 + t); }) == 1);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (t * 32 + 5); }) == 32);
  lesson::Figures figures;
  figures.measured("naive.fraction_of_copy", kMeasurementFile, "transpose.naive_fraction_of_copy");
  figures.measured("tiled.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy");
  figures.measured("tiled.speedup_over_naive", kMeasurementFile, "transpose.speedup_over_naive");
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}
