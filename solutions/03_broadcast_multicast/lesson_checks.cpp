// Chapter 03 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include "grader/harness/lesson_checks.hpp"
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "grader/03_broadcast_multicast/pattern_spec.hpp"

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

  // Section 4's worked example: on the quoted keys, one table costs 4 wavefronts and the 16
  // copies 2; over random keys the 16 copies never cost more than 2.
  const int keys[32] = {28,  46,  43,  184, 86, 157, 128, 108, 18,  81,  220,
                        201, 190, 227, 137, 18, 14,  186, 238, 163, 194, 216,
                        84,  90,  120, 118, 12, 90,  166, 88,  69,  184};
  const auto slot16 = [](int key, int lane) { return 32 * (key / 2) + 16 * (key % 2) + lane % 16; };
  CHECK(text.find("28 46 43 184 86 157 128 108 18 81 220 201 190 227 137 18 14 186 238 163 194 "
                  "216 84\n90 120 118 12 90 166 88 69 184") != std::string::npos);
  CHECK(lesson::wavefronts_of(4, [&](int t) { return 4LL * keys[t]; }) == 4);
  CHECK(lesson::wavefronts_of(4, [&](int t) { return 4LL * slot16(keys[t], t); }) == 2);
  int worst = 0;
  for (int warp = 0; warp < 2000; ++warp) {
    int k[32];
    for (int& key : k) key = static_cast<int>(rng() % 256);
    worst = std::max(worst, lesson::wavefronts_of(4, [&](int t) { return 4LL * slot16(k[t], t); }));
  }
  CHECK(worst == 2);

  lesson::Figures figures;
  figures.measured("speedup.uniform_keys", kMeasurementFile, "speedup.uniform_keys");
  figures.measured("occupancy.yours", kMeasurementFile, "occupancy.yours_blocks_per_sm");
  figures.measured("occupancy.naive", kMeasurementFile, "occupancy.naive_blocks_per_sm");
  figures.measured("speedup.one_key_for_all", kMeasurementFile, "speedup.one_key_for_all");
  figures.threshold(threshold("uniform_speedup"));
  figures.threshold(threshold("other_keys_speed"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch03 lesson: it leaves the graded answers to the student", "[lesson]") {
  std::vector<lesson::Graded> graded;
  for (ch03::Pattern p : ch03::kAllPatterns) {
    const std::string name = ch03::spec::name(p);
    // The access inside the name's parentheses, as the lesson would write it.
    const std::string access =
        name.substr(name.find('(') + 1, name.rfind(')') - name.find('(') - 1);
    graded.push_back(
        {"predicted_wavefronts(" + name + ")", {"`" + access + "`"}, {ch03::spec::request(p)}});
  }
  // Exercise 2: the conflict-free table, however it is written, and the reference's layout
  // (this build links it) drawn on the keys of the lesson's figure.
  const int keys[32] = {28,  46,  43,  184, 86, 157, 128, 108, 18,  81,  220,
                        201, 190, 227, 137, 18, 14,  186, 238, 163, 194, 216,
                        84,  90,  120, 118, 12, 90,  166, 88,  69,  184};
  graded.push_back({"table_slot (exercise 2)",
                    {"32 * key + lane", "key * 32 + lane", "lane + 32 * key", "32 copies"},
                    {WarpRequest::from_lanes(
                        4, Op::kLoad, [&](int t) { return 4LL * ch03::table_slot(keys[t], t); })}});
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}
