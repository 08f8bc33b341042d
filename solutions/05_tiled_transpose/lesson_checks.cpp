// Chapter 05 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch05 lesson: the grid order's geometry", "[lesson]") {
  // 32 rows of out, 8192 floats each, are the 1 MiB between bands of the other grid order.
  static_assert(32LL * 8192 * 4 == 1024 * 1024);
  CHECK(lesson::read_lesson(grader::chapter::kFolder).find("1 MiB apart") != std::string::npos);
}

TEST_CASE("ch05 lesson: the H200 numbers", "[lesson]") {
  lesson::Figures figures;
  // Speeds move from run to run: fractions of copy to 0.03, the speedup to a tenth of itself.
  figures.measured_about("naive.fraction_of_copy", kMeasurementFile,
                         "transpose.naive_fraction_of_copy", 0.03);
  figures.measured_about("tiled.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy",
                         0.03);
  figures.measured_about("tiled.speedup_over_naive", kMeasurementFile,
                         "transpose.speedup_over_naive", 0.32);
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch05 lesson: it leaves the two predictions to the student", "[lesson]") {
  // Exercise 2: a warp's store of a tile row and its load of a tile column, float
  // tile[32][32]; the grader asks about row and column 5, and every other one costs the same.
  std::vector<lesson::Graded> graded;
  for (int i = 0; i < ch05::kTile; ++i) {
    graded.push_back({"predicted_tile_store_wavefronts(c)",
                      {"store of a row is conflict-free", "store of a row is one wavefront"},
                      {ch05::spec::tile_row_store(i)}});
    graded.push_back({"predicted_tile_load_wavefronts(c)",
                      {"32 wavefronts", "32-way"},
                      {ch05::spec::tile_column_load(i)}});
  }
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
  // The reference's rules (this build links it) are the model's for every row and column of the
  // kernel's tile.
  for (int i = 0; i < ch05::kTile; ++i) {
    const ch05::TileCase c{4, ch05::kTile, i, i};
    CHECK(smem::analyze(ch05::spec::tile_row_store(c)).wavefronts ==
          ch05::predicted_tile_store_wavefronts(c));
    CHECK(smem::analyze(ch05::spec::tile_column_load(c)).wavefronts ==
          ch05::predicted_tile_load_wavefronts(c));
  }
}

TEST_CASE("ch05 lesson: no variant grades a tile access the lesson works or draws", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // What the lesson works: the double tile[32][32] of its figure (any row, any column), and
  // every analyser example of its text and figures.
  std::vector<std::pair<std::string, smem::WarpRequest>> worked;
  for (int i = 0; i < ch05::kTile; ++i) {
    const ch05::TileCase lesson_tile{8, ch05::kTile, i, i};
    worked.push_back({"double tile[32][32], row " + std::to_string(i) + " stored",
                      ch05::spec::tile_row_store(lesson_tile)});
    worked.push_back({"double tile[32][32], column " + std::to_string(i) + " loaded",
                      ch05::spec::tile_column_load(lesson_tile)});
  }
  const std::string figures = lesson::read_source_file(
      std::string("chapters/") + grader::chapter::kFolder + "/figures/figures.tsv");
  const std::size_t own = worked.size();
  for (const lesson::AnalyserExample& e : lesson::analyser_examples(text, figures)) {
    if (e.drawn) worked.push_back({e.where + ": " + e.command, e.request});
  }
  CHECK(worked.size() > own);  // the figure's examples were found
  const ch05::TileCase kernel = ch05::spec::kernel_tile();
  std::vector<lesson::Graded> graded;
  std::vector<std::string> seen;
  for (const grader::variant::Identity& v : lesson::class_variants()) {
    const ch05::TileCase c = ch05::spec::tile_case(v);
    const std::string what = ch05::spec::store_text(c) + "; " + ch05::spec::load_text(c);
    if (std::find(seen.begin(), seen.end(), what) != seen.end()) continue;
    seen.push_back(what);
    // A class variant's tile is never the kernel's: its answers are not the self-study ones.
    CHECK_FALSE((c.element_bytes == kernel.element_bytes && c.pitch == kernel.pitch));
    const smem::WarpRequest drawn[] = {ch05::spec::tile_row_store(c),
                                       ch05::spec::tile_column_load(c)};
    // Nor does it cost what the kernel's does: the answers everyone knows are variant 0's.
    INFO(what);
    CHECK_FALSE((smem::analyze(drawn[0]).wavefronts ==
                     smem::analyze(ch05::spec::tile_row_store(kernel)).wavefronts &&
                 smem::analyze(drawn[1]).wavefronts ==
                     smem::analyze(ch05::spec::tile_column_load(kernel)).wavefronts));
    for (const smem::WarpRequest& r : drawn) {
      for (const auto& [example, request] : worked) {
        if (lesson::same_access(r, request)) {
          FAIL_CHECK(v.describe() << " grades " << what
                                  << ", which the lesson works or draws: " << example);
        }
      }
    }
    graded.push_back({"the tile of " + v.describe() + ": " + what,
                      {ch05::spec::declaration(c)},
                      {drawn[0], drawn[1]}});
  }
  // And the lesson prints none of them, nor a picture of one.
  lesson::check_not_printed(graded, text);
}
