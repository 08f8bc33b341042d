// Chapter 08 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/access_arguments.hpp"
#include "common/model/case_file.hpp"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/harness/lesson_checks.hpp"

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
  // Section 3's worked swizzle: chunk c of 8 consecutive 128-byte rows per group, plain 32
  // wavefronts, with c ^ (r % 8) the ideal 4; a row store of the swizzled tile stays ideal.
  CHECK(lesson::wavefronts_of(16, [](int t) { return 128LL * t; }) == 32);
  CHECK(lesson::wavefronts_of(16, [](int t) { return 128LL * t + 16 * (t % 8); }) == 4);
  for (int r = 0; r < 8; ++r) {
    CHECK(smem::analyze(WarpRequest::from_lanes(16, Op::kStore, [r](int t) {
            return 128LL * (r + 8 * (t / 8)) + 16 * ((t % 8) ^ r);
          })).excess == 0);
  }
  // float tile[32][33] rows are aligned every 4th row.
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
  // Section 1: a conflict-free 16-byte request costs its groups with an active lane, as the
  // H200 measured: 32 different chunks 4, chunks shared four by four (pairs merge) 2, lanes 0-7
  // alone 1. The model agrees on each (the validator checks every case).
  figures.measured_case("cases.w16_s1", "w16_s1");
  // Groups are never repacked: group g reads 8 chunks 128 bytes apart in bank quad g. Each
  // group is 8-way; no bank serves more than 8 words of the whole warp, yet the H200 counted
  // 32 (case w16_ldm_rows), as the model adds the groups.
  figures.measured_case("cases.groups_add", "w16_ldm_rows");
  const WarpRequest quads_apart =
      WarpRequest::from_lanes(16, Op::kLoad, [](int t) { return 128LL * (t % 8) + 16 * (t / 8); });
  const smem::Analysis added = smem::analyze(quads_apart);
  REQUIRE(added.groups.size() == 4);
  for (const smem::GroupAnalysis& g : added.groups) CHECK(g.wavefronts == 8);
  CHECK(added.wavefronts == 32);
  std::map<int, std::set<std::int64_t>> words_of_bank;  // over the whole warp
  for (int t = 0; t < smem::kWarpSize; ++t) {
    for (int k = 0; k < 4; ++k) {
      const std::int64_t word = quads_apart.address[t] / 4 + k;
      words_of_bank[static_cast<int>(word % 32)].insert(word);
    }
  }
  for (const auto& [bank, words] : words_of_bank) CHECK(words.size() <= 8);
  CHECK(text.find("128 (t % 8) + 16 (t / 8)") != std::string::npos);
  figures.measured_case("cases.w16_quads", "w16_quads");
  figures.measured_case("cases.w16_lanes_0_7", "w16_inactive_upper");
  const auto chunks = [](int t) { return 16LL * t; };
  const auto quads = [](int t) { return 16LL * (t / 4); };
  const auto lanes_0_7 = [](int t) { return t < 8 ? 16LL * t : smem::kInactive; };
  for (const WarpRequest& r : {WarpRequest::from_lanes(16, Op::kLoad, chunks),
                               WarpRequest::from_lanes(16, Op::kLoad, quads),
                               WarpRequest::from_lanes(16, Op::kLoad, lanes_0_7)}) {
    const smem::Analysis a = smem::analyze(r);
    CHECK(a.excess == 0);
    CHECK(a.wavefronts == a.active_groups);
  }
  CHECK(smem::pairs_merge(WarpRequest::from_lanes(16, Op::kLoad, quads)));
  // Section 3 and 4: the H200 numbers.
  // Speeds move from run to run: fractions of copy to 0.03.
  figures.measured_about("wide.fraction_of_copy", kMeasurementFile, "transpose.fraction_of_copy",
                         0.03);
  figures.measured_about("swizzled.fraction_of_copy", "ch07_swizzled_transpose",
                         "transpose.fraction_of_copy", 0.03);
  figures.measured_about("naive.fraction_of_copy", kMeasurementFile,
                         "transpose.naive_fraction_of_copy", 0.03);
  CHECK(lesson::h200(kMeasurementFile, "counted.store_wavefronts") == 4);  // "no wavefront
  CHECK(lesson::h200(kMeasurementFile, "counted.load_wavefronts") == 4);   // beyond the ideal"
  // Section 5: the row-major tile's wrong answer, its 32-wavefront load counted on the H200.
  CHECK(lesson::h200("ch08_wide_accesses/wrong_answers/row_major_tile_on_gpu",
                     "counted.load_wavefronts") == 32);
  figures.measured_about("row_major_tile.fraction_of_copy",
                         "ch08_wide_accesses/wrong_answers/row_major_tile_on_gpu",
                         "transpose.fraction_of_copy", 0.03);
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch08 lesson: its rules were measured on hundreds of wide requests", "[lesson]") {
  // Section 1: "measured on the H200, on hundreds of requests, many of them random with lanes
  // switched off": the 8- and 16-byte loads and stores of the validator's committed run, each
  // costing what the model says.
  const std::string file = "tools/maintainer/measurements/h200/smem-cases.tsv";
  std::istringstream committed(lesson::read_source_file(file));
  int wide = 0, random = 0, with_lanes_off = 0;
  for (const smem::SmemCase& c : smem::read_cases(committed, file)) {
    if (c.request.op == Op::kLdmatrix || c.request.width_bytes < 8 || !c.wavefronts) continue;
    if (c.request.op != Op::kLoad && c.request.op != Op::kStore) continue;
    ++wide;
    random += c.name.rfind("rnd", 0) == 0 ? 1 : 0;  // make_validation_cases.py's random cases
    bool off = false;
    for (int t = 0; t < smem::kWarpSize; ++t) off = off || !c.request.active(t);
    with_lanes_off += off ? 1 : 0;
    INFO("case " << c.name);
    CHECK(smem::analyze(c.request).wavefronts == *c.wavefronts);
  }
  CHECK(wide >= 200);
  CHECK(random >= 100);
  CHECK(with_lanes_off >= 100);
  CHECK(lesson::read_lesson(grader::chapter::kFolder).find("on hundreds of\nrequests") !=
        std::string::npos);
}

TEST_CASE("ch08 lesson: it leaves the layout and the four predictions to the student", "[lesson]") {
  // The requests of the four predictions: every tile store and load of the kernel through the
  // reference's layout (this file is built with the solution), the load from the chunk-padded
  // tile, and the pairs store. No analyser example or picture of the lesson may be one of them.
  std::vector<WarpRequest> stores, loads;
  for (int w = 0; w < ch08::kBlockSide / 2; ++w) {
    for (int i = 0; i < 4; ++i) {
      stores.push_back(ch08::spec::tile_store(ch08::tile_chunk_offset, w, i));
      loads.push_back(ch08::spec::tile_load(ch08::tile_chunk_offset, w, i));
    }
  }
  const auto padded_load = ch08::spec::tile_load(ch08::spec::padded_by_a_chunk, 0, 0);
  const auto pairs_store =
      WarpRequest::from_lanes(8, Op::kStore, [](int t) { return 8LL * (t / 2); });
  lesson::check_not_printed(
      {{"tile_chunk_offset (exercise 1)",
        {"(r / 4) % 8", "(row / 4) % 8", "((r / 4) & 7)", "(row >> 2) & 7", "(r >> 2) & 7"},
        loads},
       {"predicted_tile_store_wavefronts()", {"4.00 per tile store"}, stores},
       {"predicted_tile_load_wavefronts()", {"4.00 per tile load"}, loads},
       {"predicted_padded_load_wavefronts(pitch_floats, load_bytes)",
        {"16 wavefronts"},
        {padded_load}},
       {"predicted_float2_pairs_store_wavefronts(stride)", {}, {pairs_store}}},
      lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch08 lesson: no variant's exercise 3 request is one the lesson works", "[lesson]") {
  // Every class variant 1..2000 and both range ends: the padded load and the float2 store they
  // draw (the tile store and load are the kernel's own, above) are neither pictured nor an
  // analyser example of the lesson.
  std::vector<WarpRequest> padded, pairs;
  const auto add = [](std::vector<WarpRequest>& list, const WarpRequest& r) {
    for (const WarpRequest& seen : list) {
      if (smem::same_access(seen, r)) return;
    }
    list.push_back(r);
  };
  for (const grader::variant::Identity& v : lesson::class_variants()) {
    const ch08::spec::Exercise3Case c = ch08::spec::exercise3_case(v);
    add(padded, ch08::spec::padded_load(c));
    add(pairs, ch08::spec::pairs_store(c));
  }
  CHECK(padded.size() > 1);
  CHECK(pairs.size() > 1);
  lesson::check_not_printed(
      {{"predicted_padded_load_wavefronts(pitch_floats, load_bytes) (every variant)", {}, padded},
       {"predicted_float2_pairs_store_wavefronts(stride) (every variant)", {}, pairs}},
      lesson::read_lesson(grader::chapter::kFolder));
}
