// Chapter 08 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
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

TEST_CASE("ch08 lesson: wide requests, the chunk layouts and the H200 numbers", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 1: float2 a[t] (two groups) and float2 pairs[t / 2] (merged pairs, one group).
  for (const WarpRequest& r :
       {WarpRequest::from_lanes(8, Op::kLoad, [](int t) { return 8 * t; }),
        WarpRequest::from_lanes(8, Op::kLoad, [](int t) { return 8 * (t / 2); })}) {
    const std::string picture = lesson::quoted_picture(r);
    INFO("picture missing from the lesson:\n" << picture);
    CHECK(text.find(picture) != std::string::npos);
  }
  // Section 3, quoted up to its first rows: the block load of warp 0 from the row-major tile
  // (lane t reads chunk t / 16 of row 4 (t % 16)), and from the swizzled one.
  const std::string row_major = lesson::quoted_picture(WarpRequest::from_lanes(
      16, Op::kLoad, [](int t) { return 1024 * (t % 16) + 16 * (t / 16); }));
  CHECK(text.find(row_major.substr(0, row_major.find(" w3 "))) != std::string::npos);
  const std::string swizzled = lesson::quoted_picture(WarpRequest::from_lanes(
      16, Op::kLoad, [](int t) { return 1024 * (t % 16) + 16 * ((t / 16) ^ (t % 8)); }));
  CHECK(text.find(swizzled.substr(0, swizzled.find("group of lanes 8-15"))) != std::string::npos);
  // Padding rows by 16 bytes: 16 wavefronts; float tile[32][33] rows are aligned every 4th row.
  CHECK(lesson::wavefronts_of(16, [](int t) { return 4LL * (68 * 4 * (t % 16) + 4 * (t / 16)); }) ==
        16);
  for (int r = 0; r < 8; ++r) CHECK(((132 * r) % 16 == 0) == (r % 4 == 0));
  // No uniform padding with aligned rows removes the block load's conflict.
  for (int pitch = 64; pitch <= 128; pitch += 4) {
    INFO("pitch " << pitch << " floats");
    CHECK(lesson::wavefronts_of(
              16, [pitch](int t) { return 4LL * (pitch * 4 * (t % 16) + 4 * (t / 16)); }) > 4);
  }

  lesson::Figures figures;
  // Section 1: stores never merge; with lanes 16-31 off, an unmerged 8-byte load has ideal 1.
  const auto same_double = [](int) { return 64; };
  figures.add("double_store.wavefronts",
              smem::analyze(WarpRequest::from_lanes(8, Op::kStore, same_double)).wavefronts,
              "the bank model");
  figures.add("double_load.wavefronts",
              smem::analyze(WarpRequest::from_lanes(8, Op::kLoad, same_double)).wavefronts,
              "the bank model");
  const WarpRequest lower_half = WarpRequest::from_lanes(
      8, Op::kLoad, [](int t) { return t < 16 ? 16 * t : smem::kInactive; });
  CHECK_FALSE(smem::pairs_merge(lower_half));
  figures.add("lower_half.ideal", smem::analyze(lower_half).ideal, "the bank model");
  // Section 3 and 4: the H200 numbers.
  figures.measured("wide.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy");
  figures.measured("swizzled.fraction_of_copy", "ch07_swizzled_transpose",
                   "transpose.fraction_of_copy");
  figures.measured("naive.fraction_of_copy", kMeasurementFile, "transpose.naive_fraction_of_copy");
  figures.measured("counted.store_wavefronts", kMeasurementFile, "counted.store_wavefronts");
  figures.measured("counted.load_wavefronts", kMeasurementFile, "counted.load_wavefronts");
  figures.measured("row_major_tile.fraction_of_copy",
                   "wrong_answers/ch08_row_major_tile_on_gpu/ch08_wide_accesses",
                   "transpose.fraction_of_copy");
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, text);
}
