// Chapter 01 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>
#include <vector>

#include "grader/harness/lesson_checks.hpp"
#include "grader/harness/line_fit.hpp"

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
}  // namespace

TEST_CASE("ch01 lesson: its pictures are the model's", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  const WarpRequest drawn[] = {
      WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 8 * t; }),          // a[2 lane]
      WarpRequest::from_lanes(4, Op::kLoad, [](int) { return 28; }),               // a[7]
      WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 128 * (t % 2); }),  // two words
      WarpRequest::from_lanes(1, Op::kLoad, [](int t) { return t; }),              // bytes
  };
  for (const WarpRequest& r : drawn) {
    const std::string picture = lesson::quoted_picture(r);
    INFO("picture missing from the lesson:\n" << picture);
    CHECK(text.find(picture) != std::string::npos);
  }
  // The 32-way column is quoted shortened: its first two rows and its last.
  const std::string column = lesson::quoted_picture(
      WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 128 * t + 20; }));
  CHECK(text.find(column.substr(0, column.find(" w3 "))) != std::string::npos);
}

TEST_CASE("ch01 lesson: its figures are the model's and the H200's", "[lesson]") {
  lesson::Figures figures;
  // Section 4: a double loaded by every lane from one address: one group, 1 wavefront, ideal 1.
  const smem::Analysis same_double =
      smem::analyze(WarpRequest::from_lanes(8, Op::kLoad, [](int) { return 64; }));
  CHECK(same_double.active_groups == 1);
  figures.add("double_broadcast.wavefronts", same_double.wavefronts, 0, "the bank model");
  figures.add("double_broadcast.ideal", same_double.ideal, 0, "the bank model");
  // Section 5: cycles per load, to the one decimal printed.
  figures.measured("cycles.one_wavefront", kMeasurementFile, "cycles_per_load.kContiguousFloats",
                   0.05);
  figures.measured("cycles.per_wavefront", kMeasurementFile, "fit.cycles_per_wavefront", 0.05);
  figures.measured("cycles.stride2", kMeasurementFile, "cycles_per_load.kStride2Floats", 0.05);
  figures.measured("cycles.struct_field", kMeasurementFile, "cycles_per_load.kStructField", 0.05);
  figures.measured("cycles.column_of_32x32", kMeasurementFile, "cycles_per_load.kColumnOf32x32",
                   0.05);
  // Section 7: the cost fit's thresholds.
  figures.threshold(threshold("cost_fit_r_squared"));
  figures.threshold(threshold("cycles_per_wavefront"));
  figures.threshold(threshold("max_residual_wavefronts"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch01 thresholds: the cost fit tells a wrong prediction from a right one", "[lesson]") {
  // Cycles = 28 + 2 x wavefronts, with the chapter's nine patterns' wavefronts.
  const std::vector<double> right = {1, 2, 4, 32, 1, 1, 2, 1, 32};
  std::vector<double> cycles;
  for (double w : right) cycles.push_back(28 + 2 * w);
  // Forgetting the broadcast: one pattern predicted 32 that costs 1.
  std::vector<double> wrong = right;
  wrong[5] = 32;
  CHECK(grader::fit_line(wrong, cycles).r_squared < threshold("cost_fit_r_squared").value);
  // Forgetting multicast: bytes predicted 4, costing 1. R^2 alone misses it; the residual
  // (in wavefronts) does not.
  wrong = right;
  wrong[7] = 4;
  const grader::LineFit slip = grader::fit_line(wrong, cycles);
  CHECK(slip.r_squared > threshold("cost_fit_r_squared").value);
  CHECK(slip.max_abs_residual / slip.slope > threshold("max_residual_wavefronts").value);
}
