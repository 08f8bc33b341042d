// Chapter 06 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>
#include <vector>

#include "chapters/06_padded_transpose/padded_transpose.cuh"
#include "grader/harness/lesson_checks.hpp"
#include "grader/transpose/tile_layout_check.hpp"

TEST_CASE("ch06 lesson: the padded tile's wavefronts and the H200 numbers", "[lesson]") {
  // Section 1's worked tile: a column of float tile[64][64] is 32-way, of [64][65] free, of
  // [64][66] 2-way; a row store of [64][65] is free. Section 2's sizes.
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (64 * t + 3); }) == 32);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (65 * t + 3); }) == 1);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (66 * t + 3); }) == 2);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * (65 * 7 + t); }) == 1);
  static_assert(64 * 65 * 4 == 16640 && 64 * 64 * 4 == 16384);
  lesson::Figures figures;
  // Speeds move from run to run: fractions of copy to 0.03.
  figures.measured_about("padded.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy",
                         0.03);
  figures.measured_about("tiled.fraction_of_copy", "ch05_tiled_transpose",
                         "transpose.fraction_of_copy", 0.03);
  figures.measured_about("naive.fraction_of_copy", kMeasurementFile,
                         "transpose.naive_fraction_of_copy", 0.03);
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch06 lesson: it leaves the tile's layout to the student", "[lesson]") {
  // Every row store and column load of the reference's tile (this file is built with the
  // solution): no analyser example or picture of the lesson may be one of them.
  const std::vector<WarpRequest> requests = transpose::tile_requests(ch06::padded_tile_index);
  lesson::check_not_printed(
      {{"padded_tile_index (exercise 1)",
        {"[32][33]", "33 row", "33 * row", "row * 33", "32 x 33", "kTile + 1", "32 * 33"},
        requests}},
      lesson::read_lesson(grader::chapter::kFolder));
}
