// Chapter 03 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include "grader/harness/lesson_checks.hpp"
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
}  // namespace

TEST_CASE("ch03 lesson: the tables and the H200 numbers", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 2 and 3 tables: pattern -> wavefronts (the last cell).
  struct Row {
    const char* first_cell;
    int width;
    std::function<long long(int)> address;
  };
  const Row rows[] = {
      {"`c[lane % 4]` (4 bytes of one word, 8 lanes each)", 1, [](int t) { return t % 4; }},
      {"`c[4 * lane]` (one byte per word)", 1, [](int t) { return 4 * t; }},
      {"`c[32 * lane]` (bytes 32 apart)", 1, [](int t) { return 32 * t; }},
      {"`h[lane / 2]` (halfword pairs)", 2, [](int t) { return 2 * (t / 2); }},
      {"`h[64 * lane]` (halfwords 128 bytes apart)", 2, [](int t) { return 128 * t; }},
      {"`double d[8]`, every lane reads `d[3]`", 8, [](int) { return 24; }},
      {"`d[lane / 2]` (pairs share a double)", 8, [](int t) { return 8 * (t / 2); }},
      {"`float4 v[8]`, every lane reads `v[2]`", 16, [](int) { return 32; }},
      {"`v[lane / 16]` (one float4 per half-warp)", 16, [](int t) { return 16 * (t / 16); }},
  };
  for (const Row& row : rows) {
    INFO(row.first_cell);
    const std::vector<std::string> cells = lesson::table_row(text, row.first_cell);
    REQUIRE(!cells.empty());
    CHECK(std::stoi(cells.back()) == lesson::wavefronts_of(row.width, row.address));
  }
  // "the busiest bank usually has 3 or 4 distinct words" for uniform keys over 256 entries.
  std::mt19937 rng(5);
  int three_or_four = 0;
  for (int warp = 0; warp < 2000; ++warp) {
    const int w = lesson::wavefronts_of(4, [&](int) { return 4LL * (rng() % 256); });
    three_or_four += (w == 3 || w == 4) ? 1 : 0;
  }
  CHECK(three_or_four > 1000);

  lesson::Figures figures;
  figures.measured("speedup.uniform_keys", kMeasurementFile, "speedup.uniform_keys");
  figures.measured("speedup.one_key_for_all", kMeasurementFile, "speedup.one_key_for_all");
  figures.threshold(threshold("uniform_speedup"));
  figures.threshold(threshold("other_keys_speed"));
  lesson::check_figures(figures, text);
}
