// Chapter 04 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include "grader/harness/lesson_checks.hpp"
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
}  // namespace

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
  // Section 3: the least pitch for each element size; columns one word apart behave alike.
  auto least_pitch = [](int bytes, int width) {
    for (int pitch = width;; ++pitch) {
      bool ok = true;
      for (int c = 0; c < std::min(width, std::max(1, 4 / bytes)) && ok; ++c) {
        ok = smem::analyze(WarpRequest::from_lanes(bytes, Op::kLoad, [&](int t) {
               return static_cast<long long>(bytes) * (t * pitch + c);
             })).excess == 0;
      }
      if (ok) return pitch;
    }
  };
  for (int width : {1, 2, 4, 8, 16, 32, 33, 64}) {
    const std::vector<std::string> cells = lesson::table_row(text, std::to_string(width));
    REQUIRE(cells.size() == 6);
    const int sizes[] = {1, 2, 4, 8, 16};
    for (int k = 0; k < 5; ++k) {
      INFO("width " << width << ", " << sizes[k] << "-byte elements");
      CHECK(std::stoi(cells[static_cast<std::size_t>(k) + 1]) == least_pitch(sizes[k], width));
    }
  }

  lesson::Figures figures;
  figures.measured("unpadded.fraction_of_copy", kMeasurementFile,
                   "column_sums.unpadded_fraction_of_copy");
  figures.measured("padded.fraction_of_copy", kMeasurementFile, "column_sums.fraction_of_copy");
  figures.measured("padded.speedup", kMeasurementFile, "column_sums.speedup_over_unpadded");
  figures.threshold(threshold("padding_speedup"));
  lesson::check_figures(figures, text);
}
