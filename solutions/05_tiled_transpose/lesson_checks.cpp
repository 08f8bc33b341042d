// Chapter 05 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
}  // namespace

TEST_CASE("ch05 lesson: the grid order's geometry", "[lesson]") {
  // 32 rows of out, 8192 floats each, are the 1 MiB between bands of the other grid order.
  static_assert(32LL * 8192 * 4 == 1024 * 1024);
  CHECK(lesson::read_lesson(grader::chapter::kFolder).find("1 MiB apart") != std::string::npos);
}

TEST_CASE("ch05 lesson: the H200 numbers", "[lesson]") {
  lesson::Figures figures;
  figures.measured("naive.fraction_of_copy", kMeasurementFile, "transpose.naive_fraction_of_copy");
  figures.measured("tiled.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy");
  figures.measured("tiled.speedup_over_naive", kMeasurementFile, "transpose.speedup_over_naive");
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch05 lesson: it leaves the two predictions to the student", "[lesson]") {
  // Exercise 2: a warp's store of a tile row and its load of a tile column, float
  // tile[32][32]; the grader asks about row and column 5, and every other one costs the same.
  std::vector<lesson::Graded> graded;
  for (int i = 0; i < ch05::kTile; ++i) {
    graded.push_back({"predicted_tile_store_wavefronts()",
                      {"store of a row is conflict-free", "store of a row is one wavefront"},
                      {ch05::spec::tile_row_store(i)}});
    graded.push_back({"predicted_tile_load_wavefronts()",
                      {"32 wavefronts", "32-way"},
                      {ch05::spec::tile_column_load(i)}});
  }
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
  // The reference's predictions (this build links it) are the model's for every row and column.
  for (int i = 0; i < ch05::kTile; ++i) {
    CHECK(smem::analyze(ch05::spec::tile_row_store(i)).wavefronts ==
          ch05::predicted_tile_store_wavefronts());
    CHECK(smem::analyze(ch05::spec::tile_column_load(i)).wavefronts ==
          ch05::predicted_tile_load_wavefronts());
  }
}
