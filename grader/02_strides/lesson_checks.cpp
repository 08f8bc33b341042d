// Chapter 02 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include "grader/harness/lesson_checks.hpp"
#include <string>
#include <vector>

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
}  // namespace

TEST_CASE("ch02 lesson: the gcd table, the picture and the H200 numbers", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  const std::vector<std::string> strides = lesson::table_row(text, "stride `s`");
  const std::vector<std::string> ways = lesson::table_row(text, "wavefronts");
  REQUIRE(strides.size() > 1);
  REQUIRE(strides.size() == ways.size());
  for (std::size_t i = 1; i < strides.size(); ++i) {
    const int s = std::stoi(strides[i]);
    INFO("stride " << s);
    CHECK(std::stoi(ways[i]) == lesson::wavefronts_of(4, [s](int t) { return 4LL * s * t; }));
  }
  CHECK(text.find(lesson::quoted_picture(WarpRequest::from_lanes(
            4, Op::kLoad, [](int t) { return 16 * t; }))) != std::string::npos);

  lesson::Figures figures;
  figures.measured("cycles.stride1", kMeasurementFile, "cycles_per_load.stride1", 0.2);
  figures.measured("cycles.stride32", kMeasurementFile, "cycles_per_load.stride32", 0.2);
  figures.measured("cycles.per_wavefront", kMeasurementFile, "fit.cycles_per_wavefront", 0.05);
  figures.measured("owner_sums.speedup", kMeasurementFile, "owner_sums.speedup_over_thread_major",
                   0.1);
  figures.measured("owner_sums.fraction_of_copy", kMeasurementFile, "owner_sums.fraction_of_copy",
                   0.03);
  figures.measured("owner_sums.thread_major_fraction_of_copy", kMeasurementFile,
                   "owner_sums.thread_major_fraction_of_copy", 0.03);
  figures.threshold(threshold("layout_speedup"));
  figures.threshold(threshold("cost_fit_r_squared"));
  figures.threshold(threshold("cycles_per_wavefront"));
  figures.threshold(threshold("max_residual_wavefronts"));
  lesson::check_figures(figures, text);
}
