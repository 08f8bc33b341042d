// Chapter @NN@ lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture it shows, against the bank model and the committed H200
// measurements.
#include <string>

#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch@NN@ lesson: its pictures and figures are the model's and the H200's", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 1: the column of float tile[64][65], as the analyser draws it.
  const std::string column = lesson::quoted_picture(
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 4LL * 65 * t; }));
  INFO("picture missing from the lesson:\n" << column);
  CHECK(text.find(column) != std::string::npos);

  lesson::Figures figures;
  // A speed moves from run to run: quoted as "about", held to about a tenth of its value (0.5
  // for a speedup near 5; a fraction of copy to 0.03). Wavefronts and thresholds stay exact.
  figures.measured_about("reference.speedup_over_naive", kMeasurementFile,
                         "transpose.speedup_over_naive", 0.5);
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch@NN@ lesson: it leaves the graded answers to the student", "[lesson]") {
  // Exercise 1's layout, however it is written, and exercise 2's request (its picture).
  lesson::check_not_printed(
      {{"tile_index (exercise 1)", {"[32][33]", "33 * row", "row * 33", "33 row"}, {}},
       {"predicted_plain_column_wavefronts()",
        {},
        {smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 4LL * 32 * t; })}}},
      lesson::read_lesson(grader::chapter::kFolder));
}
