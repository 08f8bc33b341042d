// Chapter 03 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include "grader/harness/lesson_checks.hpp"
#include <algorithm>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/model/case_file.hpp"
#include "grader/03_broadcast_multicast/pattern_spec.hpp"

namespace {

// Section 2 and 3 tables: pattern -> wavefronts (the last cell).
struct Row {
  const char* first_cell;
  int width;
  std::function<long long(int)> address;
};
const Row kTableRows[] = {
    {"`c[lane % 4]` (4 bytes of one word, 8 lanes each)", 1, [](int t) { return t % 4; }},
    {"`c[4 * lane]` (one byte per word)", 1, [](int t) { return 4 * t; }},
    {"`c[160 * lane]` (bytes 160 apart)", 1, [](int t) { return 160 * t; }},
    {"`h[lane / 2]` (halfword pairs)", 2, [](int t) { return 2 * (t / 2); }},
    {"`h[64 * lane]` (halfwords 128 bytes apart)", 2, [](int t) { return 128 * t; }},
    {"`double d[8]`, every lane reads `d[3]`", 8, [](int) { return 24; }},
    {"`d[lane / 2]` (pairs share a double)", 8, [](int t) { return 8 * (t / 2); }},
    {"`float4 v[8]`, every lane reads `v[2]`", 16, [](int) { return 32; }},
    {"`v[lane / 16]` (one float4 per half-warp)", 16, [](int t) { return 16 * (t / 16); }},
};

// The keys of section 4's worked example and of the lesson's figure.
const int kFigureKeys[32] = {28,  46,  43,  184, 86, 157, 128, 108, 18,  81,  220,
                             201, 190, 227, 137, 18, 14,  186, 238, 163, 194, 216,
                             84,  90,  120, 118, 12, 90,  166, 88,  69,  184};

}  // namespace

TEST_CASE("ch03 lesson: the tables and the H200 numbers", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  for (const Row& row : kTableRows) {
    INFO(row.first_cell);
    const std::vector<std::string> cells = lesson::table_row(text, row.first_cell);
    REQUIRE(!cells.empty());
    CHECK(std::stoi(cells.back()) == lesson::wavefronts_of(row.width, row.address));
    if (row.width >= 8) {  // section 3's table: pattern, groups, wavefronts
      CHECK(
          std::stoi(cells[1]) ==
          smem::analyze(WarpRequest::from_lanes(row.width, Op::kLoad, row.address)).active_groups);
    }
  }
  // Section 3's pair rule: one kind of pair for the whole warp. The measured case whose lanes
  // 0-15 pair as t^2 and lanes 16-31 as t^1 does not merge (4 groups of 8, 4 wavefronts on the
  // H200); each half alone would merge, and the halves merged apart would cost 3.
  const std::string file = "tools/maintainer/measurements/h200/smem-cases.tsv";
  std::istringstream committed(lesson::read_source_file(file));
  std::vector<smem::SmemCase> measured = smem::read_cases(committed, file);
  const auto mixed = std::find_if(measured.begin(), measured.end(), [](const smem::SmemCase& c) {
    return c.name == "rnd493_lo16_tile8_random";
  });
  REQUIRE(mixed != measured.end());
  const WarpRequest whole = mixed->request;
  CHECK(whole.width_bytes == 16);
  CHECK_FALSE(smem::pairs_merge(whole));
  const auto pairs_as = [&](int lo, int hi, int partner) {
    for (int t = lo; t < hi; ++t) {
      const int u = t ^ partner;
      if (whole.active(t) && whole.active(u) && whole.address[t] != whole.address[u]) return false;
    }
    return true;
  };
  CHECK(pairs_as(0, 16, 2));
  CHECK_FALSE(pairs_as(0, 16, 1));
  CHECK(pairs_as(16, 32, 1));
  CHECK_FALSE(pairs_as(16, 32, 2));
  const auto half = [&](int lo) {
    WarpRequest h = whole;
    for (int t = 0; t < smem::kWarpSize; ++t) {
      if (t < lo || t >= lo + 16) h.address[t] = smem::kInactive;
    }
    CHECK(smem::pairs_merge(h));
    return smem::analyze(h).wavefronts;
  };
  CHECK(smem::analyze(whole).wavefronts == *mixed->wavefronts);
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
  const auto slot16 = [](int key, int lane) { return 32 * (key / 2) + 16 * (key % 2) + lane % 16; };
  CHECK(text.find("28 46 43 184 86 157 128 108 18 81 220 201 190 227 137 18 14 186 238 163 194 "
                  "216 84\n90 120 118 12 90 166 88 69 184") != std::string::npos);
  CHECK(lesson::wavefronts_of(4, [&](int t) { return 4LL * kFigureKeys[t]; }) == 4);
  CHECK(lesson::wavefronts_of(4, [&](int t) { return 4LL * slot16(kFigureKeys[t], t); }) == 2);
  int worst = 0;
  for (int warp = 0; warp < 2000; ++warp) {
    int k[32];
    for (int& key : k) key = static_cast<int>(rng() % 256);
    worst = std::max(worst, lesson::wavefronts_of(4, [&](int t) { return 4LL * slot16(k[t], t); }));
  }
  CHECK(worst == 2);

  lesson::Figures figures;
  figures.measured_case("cases.mixed_pairs", "rnd493_lo16_tile8_random");
  figures.add("mixed_pairs.merged_per_half", half(0) + half(16),
              "the bank model on each half of case rnd493_lo16_tile8_random alone");
  figures.measured_case("cases.w16_bcast", "w16_bcast");
  // Speeds move from run to run: the speedup to a tenth of itself, the ratio near 0.9 to 0.05.
  figures.measured_about("speedup.uniform_keys", kMeasurementFile, "speedup.uniform_keys", 0.17);
  figures.measured("occupancy.yours", kMeasurementFile, "occupancy.yours_blocks_per_sm");
  figures.measured("occupancy.naive", kMeasurementFile, "occupancy.naive_blocks_per_sm");
  figures.measured_about("speedup.one_key_for_all", kMeasurementFile, "speedup.one_key_for_all",
                         0.05);
  figures.threshold(threshold("uniform_speedup"));
  figures.threshold(threshold("other_keys_speed"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch03 lesson: it leaves the graded answers to the student", "[lesson]") {
  std::vector<lesson::Graded> graded;
  // Exercise 1 at variant 0 (every class variant's cases: the check below).
  for (ch03::Pattern p : ch03::kAllPatterns) {
    const ch03::PatternCase c = ch03::spec::committed_case(p);
    graded.push_back({"predicted_wavefronts(" + ch03::spec::name(p, c) + ")",
                      {"`" + ch03::spec::access(c) + "`"},
                      {ch03::spec::request(c)}});
  }
  // Exercise 2: the conflict-free table, however it is written, and the reference's layout
  // (this build links it) drawn on the keys of the lesson's figure.
  graded.push_back({"table_slot (exercise 2)",
                    {"32 * key + lane", "key * 32 + lane", "lane + 32 * key", "32 copies"},
                    {WarpRequest::from_lanes(4, Op::kLoad, [&](int t) {
                      return 4LL * ch03::table_slot(kFigureKeys[t], t, ch03::kTableEntries);
                    })}});
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch03 lesson: no variant grades an access the lesson works or draws", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // What the lesson works: its tables' rows and its section 1 examples, and every analyser
  // example of its text and figures.
  std::vector<std::pair<std::string, WarpRequest>> worked = {
      {"a[lane / 8]", WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 4 * (t / 8); })},
      {"a[32 * (lane / 16)]",
       WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 128 * (t / 16); })},
  };
  for (const Row& row : kTableRows) {
    worked.push_back({row.first_cell, WarpRequest::from_lanes(row.width, Op::kLoad, row.address)});
  }
  const std::string figures = lesson::read_source_file(
      std::string("chapters/") + grader::chapter::kFolder + "/figures/figures.tsv");
  for (const lesson::AnalyserExample& e : lesson::analyser_examples(text, figures)) {
    if (e.drawn) worked.push_back({e.where + ": " + e.command, e.request});
  }
  CHECK(worked.size() > 11);  // the analyser examples were found
  const std::vector<grader::variant::Identity> variants = lesson::class_variants();
  // Every case any of these variants grades, once, with the first variant that draws it.
  std::vector<std::pair<std::string, WarpRequest>> drawn;
  std::vector<lesson::Graded> graded;
  for (const grader::variant::Identity& v : variants) {
    const auto cases = ch03::spec::cases(v);
    for (ch03::Pattern p : ch03::kAllPatterns) {
      const ch03::PatternCase& c = cases[static_cast<int>(p)];
      const std::string name = ch03::spec::name(p, c);
      if (std::any_of(drawn.begin(), drawn.end(), [&](const auto& d) { return d.first == name; })) {
        continue;
      }
      drawn.push_back({name, ch03::spec::request(c)});
      graded.push_back({"predicted_wavefronts(" + name + ") of " + v.describe(),
                        {"`" + ch03::spec::access(c) + "`"},
                        {ch03::spec::request(c)}});
    }
  }
  for (const auto& [name, request] : drawn) {
    for (const auto& [what, example] : worked) {
      if (lesson::same_access(request, example)) {
        FAIL_CHECK("a variant grades " << name << ", which the lesson works or draws: " << what);
      }
    }
  }
  // And the lesson prints none of them, nor a picture of one.
  lesson::check_not_printed(graded, text);
}
