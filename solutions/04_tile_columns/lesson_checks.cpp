// Chapter 04 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch04 lesson: the tile tables and the H200 numbers", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 1: float tiles, column 5 read by 32 lanes.
  const std::pair<const char*, int> tiles[] = {{"`float tile[32][32]`", 32},
                                               {"`float tile[32][33]`", 33},
                                               {"`float tile[32][34]`", 34},
                                               {"`float tile[32][16]`", 16},
                                               {"`float tile[32][17]`", 17}};
  for (const auto& [name, pitch] : tiles) {
    INFO(name);
    const std::vector<std::string> cells = lesson::table_row(text, name);
    REQUIRE(!cells.empty());
    CHECK(std::stoi(cells.back()) ==
          lesson::wavefronts_of(4, [p = pitch](int t) { return 4LL * (t * p + 5); }));
  }
  // Section 3's statements: a column of double tile[32][32] takes 32 wavefronts; of __half
  // tile[32][33], column 0 is conflict-free and column 1 2-way; a float4 row padded by 4 bytes
  // leaves 3 rows in 4 misaligned, whatever the width.
  CHECK(lesson::wavefronts_of(8, [](int t) { return 8LL * 32 * t; }) == 32);
  CHECK(lesson::wavefronts_of(2, [](int t) { return 2LL * 33 * t; }) == 1);
  CHECK(lesson::wavefronts_of(2, [](int t) { return 2LL * (33 * t + 1); }) == 2);
  for (int width = 1; width <= 64; ++width) {
    int misaligned = 0;
    for (int row = 0; row < 64; ++row) misaligned += (row * (16 * width + 4)) % 16 != 0 ? 1 : 0;
    CHECK(misaligned == 48);
  }
  CHECK(text.find("3 rows in 4 misaligned") != std::string::npos);
  // Section 2 sends the 16-wide tile ahead; the chapter it names holds its lesson to that (a
  // chapter reads earlier chapters' files only).
  CHECK(text.find("chapter 07 works out one for exactly\nthis 16-wide tile") != std::string::npos);

  lesson::Figures figures;
  // Section 3: a column of double tile[32][34], an even pitch: 2-way in each of its 2 groups.
  figures.add("double_pitch34.wavefronts",
              lesson::wavefronts_of(8, [](int t) { return 8LL * 34 * t; }), "the bank model");
  // Section 4: speeds, which move from run to run (fractions of copy to 0.03, the speedup to
  // a tenth of itself).
  figures.measured_about("unpadded.fraction_of_copy", kMeasurementFile,
                         "column_sums.unpadded_fraction_of_copy", 0.03);
  figures.measured_about("padded.fraction_of_copy", kMeasurementFile,
                         "column_sums.fraction_of_copy", 0.03);
  figures.measured_about("padded.speedup", kMeasurementFile, "column_sums.speedup_over_unpadded",
                         0.28);
  figures.threshold(threshold("padding_speedup"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch04 lesson: the rule of section 3 is the bank model's, for every element size",
          "[lesson]") {
  // What section 3 states, against the bank model on every pitch the contract can produce
  // (widths up to 1024, padding below 64): for 4-, 8- and 16-byte elements a column is
  // conflict-free exactly when the pitch in elements is odd (for floats that is the row length
  // in words; for 8- and 16-byte elements the row is then an even number of words); for bytes
  // and halfwords exactly when a row fits in one word or is a whole, odd number of words. The
  // check computes the rule and prints no pitch, so it gives no graded case away.
  for (int bytes : ch04::spec::element_sizes()) {
    int conflict_free = 0;
    for (int pitch = 1; pitch <= 1100; ++pitch) {
      const int row_bytes = pitch * bytes;
      const bool rule = bytes >= 4
                            ? pitch % 2 == 1
                            : row_bytes <= 4 || (row_bytes % 4 == 0 && (row_bytes / 4) % 2 == 1);
      const bool model = ch04::spec::conflicting_column(bytes, pitch, pitch) < 0;
      if (rule != model) {
        FAIL_CHECK(bytes << "-byte elements at a pitch of " << pitch << ": the lesson's rule says "
                         << (rule ? "conflict-free" : "conflicted") << ", the bank model "
                         << (model ? "conflict-free" : "conflicted"));
      }
      conflict_free += model ? 1 : 0;
    }
    CHECK(conflict_free > 100);  // the rule is not vacuous
    // A conflict-free column of 8- or 16-byte elements costs the ideal, 2 or 4 wavefronts, and
    // its row is an even number of words: the word rule of floats would call it conflicted.
    if (bytes >= 8) {
      const smem::Analysis odd = smem::analyze(ch04::spec::column_read(bytes, 35, 0));
      CHECK(odd.excess == 0);
      CHECK(odd.wavefronts == bytes / 4);
      CHECK((35 * bytes / 4) % 2 == 0);
    }
  }
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  CHECK(text.find("count the row in **elements**") != std::string::npos);
}

TEST_CASE("ch04 lesson: it leaves the graded pitches to the student", "[lesson]") {
  // Exercise 1 grades every element size and width of its contract, the hand-out's 1 to 256 and
  // official grading's to 1024, less the float tiles the lesson works (16, 17, 32 and 33 wide).
  // The reference's pitches (this build links it) must not appear, in a table or as a
  // declaration.
  std::vector<lesson::Graded> graded;
  const std::pair<int, std::vector<const char*>> types[] = {
      {1, {"char", "unsigned char", "uint8_t"}},
      {2, {"__half", "short", "half"}},
      {4, {"float", "int", "unsigned"}},
      {8, {"double", "float2"}},
      {16, {"float4", "int4"}}};
  for (const auto& [bytes, names] : types) {
    for (int width = 1; width <= 1024; ++width) {
      if (ch04::spec::worked_by_the_lesson(bytes, width)) continue;
      const int pitch = ch04::padded_pitch(bytes, width);
      std::vector<std::string> phrases;
      for (const char* type : names) {
        for (int rows : {32, 64, width}) {
          phrases.push_back(std::string(type) + " tile[" + std::to_string(rows) + "][" +
                            std::to_string(pitch) + "]");
        }
      }
      const std::string unit = bytes == 1 ? " bytes" : bytes == 2 ? " halves" : "";
      if (!unit.empty()) phrases.push_back("pitch of " + std::to_string(pitch) + unit);
      if (!unit.empty()) phrases.push_back("pitch is " + std::to_string(pitch) + unit);
      graded.push_back(
          {"padded_pitch(" + std::to_string(bytes) + ", " + std::to_string(width) + ")",
           phrases,
           {}});
    }
  }
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  lesson::check_not_printed(graded, text);
  CHECK(lesson::table_row(text, "width").empty());  // no table of least pitches
}

TEST_CASE("ch04 lesson: the float tiles it works are the least pitches it says", "[lesson]") {
  // The lesson works floats 32 and 16 wide out in full (padding by one float is the least),
  // which is why no check grades them; the reference agrees.
  CHECK(ch04::padded_pitch(4, 32) == 33);
  CHECK(ch04::padded_pitch(4, 33) == 33);
  CHECK(ch04::padded_pitch(4, 16) == 17);
  CHECK(ch04::padded_pitch(4, 17) == 17);
  for (int width : {16, 17, 32, 33}) CHECK(ch04::spec::worked_by_the_lesson(4, width));
}

TEST_CASE("ch04 lesson: no variant grades a tile the lesson works", "[lesson]") {
  for (const grader::variant::Identity& v : lesson::class_variants({grader::variant::of("0")})) {
    for (const ch04::spec::PitchCase& c : ch04::spec::graded_pitches(v)) {
      if (ch04::spec::worked_by_the_lesson(c.element_bytes, c.width) || c.width < 1 ||
          c.width > 1024) {
        FAIL(v.describe() + " grades " + ch04::spec::call_of(c) +
             ", a tile the lesson works or outside the contract");
      }
    }
  }
  SUCCEED();
}
