// Chapter 01 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>
#include <vector>

#include "grader/01_bank_indexing/answer_cases.hpp"
#include "grader/harness/lesson_checks.hpp"
#include "grader/harness/line_fit.hpp"

namespace {
using grader::chapter::kMeasurementFile;
// A graded pattern's request, from the reference solution this build links.
smem::WarpRequest graded_request(ch01::Pattern p) {
  return ch01::spec::request_of_exercise(p);
}
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

TEST_CASE("ch01 lesson: its statements about stores and the counter", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 3: lanes storing different bytes of one word cost one pass; so do lanes storing
  // one address. The hardware cases st4_same_word and st1_* back the model here.
  CHECK(smem::analyze(WarpRequest::from_lanes(1, Op::kStore, [](int t) {
          return t % 4;
        })).wavefronts == 1);
  CHECK(smem::analyze(WarpRequest::from_lanes(4, Op::kStore, [](int) { return 28; })).wavefronts ==
        1);
  CHECK(text.find("*different bytes* of one word all land") != std::string::npos);
  // Section 4: the counter caveat of the hardware reference (arbitration lost to TMA or
  // tensor-core traffic).
  CHECK(text.find("arbitration") != std::string::npos);
}

TEST_CASE("ch01 lesson: its figures are the model's and the H200's", "[lesson]") {
  lesson::Figures figures;
  // Section 4: a double loaded by every lane from one address: one group, 1 wavefront, ideal 1.
  const smem::Analysis same_double =
      smem::analyze(WarpRequest::from_lanes(8, Op::kLoad, [](int) { return 64; }));
  CHECK(same_double.active_groups == 1);
  figures.add("double_broadcast.wavefronts", same_double.wavefronts, "the bank model");
  figures.add("double_broadcast.ideal", same_double.ideal, "the bank model");
  // Section 5: the cost line of the H200 run, to the one decimal printed; the 32-way column's
  // extra wait is 31 further wavefronts on that line, to the whole cycle printed.
  const double intercept = lesson::h200(kMeasurementFile, "fit.intercept");
  const double slope = lesson::h200(kMeasurementFile, "fit.cycles_per_wavefront");
  figures.add("cycles.one_wavefront", intercept + slope,
              "fit.intercept + fit.cycles_per_wavefront of measurements/h200");
  figures.measured("cycles.per_wavefront", kMeasurementFile, "fit.cycles_per_wavefront");
  figures.add("cycles.column_extra", 31 * slope, "31 x fit.cycles_per_wavefront");
  // Section 7: the cost fit's thresholds.
  figures.threshold(threshold("cost_fit_r_squared"));
  figures.threshold(threshold("cycles_per_wavefront"));
  figures.threshold(threshold("max_residual_wavefronts"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch01 thresholds: the cost fit tells a wrong prediction from a right one", "[lesson]") {
  // Cycles = 28 + 2 x wavefronts, with the chapter's nine patterns' wavefronts (computed by the
  // model, so this check follows the patterns).
  std::vector<double> right;
  for (ch01::Pattern p : ch01::kAllPatterns) {
    right.push_back(smem::analyze(graded_request(p)).wavefronts);
  }
  REQUIRE(right[5] == 1);  // kFourFloatsShared
  REQUIRE(right[6] == 4);  // kFourWordsOneBank
  std::vector<double> cycles;
  for (double w : right) cycles.push_back(28 + 2 * w);
  // Counting lanes instead of words where four words are shared by eight lanes each: 8 for a
  // pattern that costs 1. R^2 alone misses it; the residual (in wavefronts) does not.
  std::vector<double> wrong = right;
  wrong[5] = 8;
  const grader::LineFit slip = grader::fit_line(wrong, cycles);
  CHECK(slip.max_abs_residual / slip.slope > threshold("max_residual_wavefronts").value);
  // The same slip where 32 lanes share four words of one bank: 32 for a pattern that costs 4.
  wrong = right;
  wrong[6] = 32;
  CHECK(grader::fit_line(wrong, cycles).r_squared < threshold("cost_fit_r_squared").value);
  // Padding by two taken for conflict-free: off by one wavefront, caught by the residual.
  wrong = right;
  wrong[4] = 1;
  const grader::LineFit off_by_one = grader::fit_line(wrong, cycles);
  CHECK(off_by_one.max_abs_residual / off_by_one.slope >
        threshold("max_residual_wavefronts").value);
}

TEST_CASE("ch01 lesson: it leaves the graded predictions to the student", "[lesson]") {
  std::vector<lesson::Graded> graded;
  for (ch01::Pattern p : ch01::kAllPatterns) {
    const std::string description = ch01::pattern_description(p);
    // The access, as the lesson would write it: what follows "reads ".
    const std::string access = description.substr(description.find("reads ") + 6);
    graded.push_back({std::string("predicted_wavefronts(") + ch01::spec::name(p) + ")",
                      {access},
                      {graded_request(p)}});
  }
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}
