// Lessons say what the model and the measurements say: every picture in chapter 01's lesson is
// what draw_request draws, and every cycle count it quotes is the committed H200 measurement.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "common/model/warp_picture.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/thresholds.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The picture without its closing legend line, as lessons quote it.
std::string quoted_picture(const smem::WarpRequest& request) {
  const std::string picture = smem::draw_request(request);
  return picture.substr(0, picture.rfind(" (row wK"));
}

std::string one_decimal(double value) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << value;
  return out.str();
}

const std::string kRoot = WORKBOOK_SOURCE_ROOT;

std::string lesson_of(const std::string& chapter) {
  return read_file(kRoot + "/chapters/" + chapter + "/README.md");
}

double measured(const std::string& file, const std::string& quantity) {
  return grader::read_measurement(kRoot + "/measurements/h200/" + file + ".tsv", quantity);
}

// The number the lesson quotes right after `before` (the first occurrence), with line breaks and
// runs of blanks in the lesson read as single spaces.
double quoted(const std::string& lesson, const std::string& before) {
  std::string flat;
  for (char c : lesson) {
    const char d = (c == '\n' || c == '\t') ? ' ' : c;
    if (!(d == ' ' && !flat.empty() && flat.back() == ' ')) flat += d;
  }
  const std::size_t at = flat.find(before);
  INFO("looking for '" << before << "'");
  REQUIRE(at != std::string::npos);
  return std::strtod(flat.c_str() + at + before.size(), nullptr);
}

// A quoted measurement agrees with the committed one to within `tolerance`.
void check_quote(const std::string& lesson, const std::string& before, double value,
                 double tolerance) {
  const double q = quoted(lesson, before);
  INFO("the lesson says '" << before << q << "'; the H200 measured " << value);
  CHECK(std::fabs(q - value) <= tolerance);
}

// A quoted threshold is the one in grader/thresholds.hpp.
void check_threshold_quote(const std::string& lesson, const std::string& before, const char* id) {
  INFO("threshold " << id);
  CHECK(quoted(lesson, before) == grader::threshold(id).value);
}

// The cells of the markdown table row that starts with `first_cell`.
std::vector<std::string> table_row(const std::string& lesson, const std::string& first_cell) {
  const std::size_t at = lesson.find("\n| " + first_cell + " |");
  REQUIRE(at != std::string::npos);
  const std::string line = lesson.substr(at + 1, lesson.find('\n', at + 1) - at - 1);
  std::vector<std::string> cells;
  std::stringstream parts(line);
  for (std::string cell; std::getline(parts, cell, '|');) {
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    if (!cell.empty()) cells.push_back(cell);
  }
  return cells;
}

int wavefronts_of(int width, std::function<long long(int)> address) {
  return smem::analyze(smem::WarpRequest::from_lanes(width, smem::Op::kLoad, address)).wavefronts;
}

}  // namespace

TEST_CASE("chapter 01 lesson: its pictures are the model's", "[host][lessons]") {
  const std::string lesson = read_file(kRoot + "/chapters/01_bank_indexing/README.md");
  using smem::Op;
  using smem::WarpRequest;
  const WarpRequest drawn[] = {
      WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 8 * t; }),          // a[2 lane]
      WarpRequest::from_lanes(4, Op::kLoad, [](int) { return 28; }),               // a[7]
      WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 128 * (t % 2); }),  // two words
      WarpRequest::from_lanes(1, Op::kLoad, [](int t) { return t; }),              // bytes
  };
  for (const WarpRequest& r : drawn) {
    const std::string picture = quoted_picture(r);
    INFO("picture missing from the lesson:\n" << picture);
    CHECK(lesson.find(picture) != std::string::npos);
  }
  // The 32-way column is quoted shortened: its first two rows and its last.
  const std::string column =
      quoted_picture(WarpRequest::from_lanes(4, Op::kLoad, [](int t) { return 128 * t + 20; }));
  const std::string head = column.substr(0, column.find(" w3 "));
  CHECK(lesson.find(head) != std::string::npos);
  // Section 4: a double loaded by every lane from one address is one group, 1 wavefront, ideal 1.
  const smem::Analysis same_double =
      smem::analyze(WarpRequest::from_lanes(8, Op::kLoad, [](int) { return 64; }));
  CHECK(same_double.active_groups == 1);
  CHECK(quoted(lesson, "stays one group, ") == same_double.wavefronts);
  CHECK(quoted(lesson, "1 wavefront, ideal ") == same_double.ideal);
}

TEST_CASE("chapter 01 lesson: its cycle counts are the committed H200 measurements",
          "[host][lessons]") {
  const std::string lesson = read_file(kRoot + "/chapters/01_bank_indexing/README.md");
  const std::string file = kRoot + "/measurements/h200/ch01_bank_indexing.tsv";
  for (const char* quantity :
       {"cycles_per_load.kContiguousFloats", "cycles_per_load.kStride2Floats",
        "cycles_per_load.kStructField", "cycles_per_load.kColumnOf32x32"}) {
    const std::string value = one_decimal(grader::read_measurement(file, quantity));
    INFO(quantity << " measured " << value << " cycles on the H200; the lesson must say so");
    CHECK(lesson.find(value) != std::string::npos);
  }
  const std::string slope = one_decimal(grader::read_measurement(file, "fit.cycles_per_wavefront"));
  CHECK(lesson.find("adds exactly " + slope) != std::string::npos);
}

TEST_CASE("chapter 02 lesson: the gcd table, the picture and the H200 numbers", "[host][lessons]") {
  const std::string lesson = lesson_of("02_strides");
  const std::vector<std::string> strides = table_row(lesson, "stride `s`");
  const std::vector<std::string> ways = table_row(lesson, "wavefronts");
  REQUIRE(strides.size() == ways.size());
  for (std::size_t i = 1; i < strides.size(); ++i) {
    const int s = std::stoi(strides[i]);
    INFO("stride " << s);
    CHECK(std::stoi(ways[i]) == wavefronts_of(4, [s](int t) { return 4LL * s * t; }));
  }
  CHECK(lesson.find(quoted_picture(smem::WarpRequest::from_lanes(
            4, smem::Op::kLoad, [](int t) { return 16 * t; }))) != std::string::npos);
  check_quote(lesson, "stride 1 costs ", measured("ch02_strides", "cycles_per_load.stride1"), 0.2);
  check_quote(lesson, "stride 32 costs ", measured("ch02_strides", "cycles_per_load.stride32"),
              0.2);
  check_quote(lesson, "each extra wavefront adds ",
              measured("ch02_strides", "fit.cycles_per_wavefront"), 0.05);
  check_quote(lesson, "the padded layout makes `owner_sums_kernel` ",
              measured("ch02_strides", "owner_sums.speedup_over_thread_major"), 0.1);
  check_quote(lesson, "thread-major one: ", measured("ch02_strides", "owner_sums.fraction_of_copy"),
              0.03);
  check_quote(lesson, "bandwidth against ",
              measured("ch02_strides", "owner_sums.thread_major_fraction_of_copy"), 0.03);
  check_threshold_quote(lesson, "exercise 3: fast | GPU | at least ", "ch02.layout_speedup");
}

TEST_CASE("chapter 03 lesson: the tables and the H200 numbers", "[host][lessons]") {
  const std::string lesson = lesson_of("03_broadcast_multicast");
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
    const std::vector<std::string> cells = table_row(lesson, row.first_cell);
    CHECK(std::stoi(cells.back()) == wavefronts_of(row.width, row.address));
  }
  // "the busiest bank usually has 3 or 4 distinct words" for uniform keys over 256 entries.
  std::mt19937 rng(5);
  int three_or_four = 0;
  for (int warp = 0; warp < 2000; ++warp) {
    const int w = wavefronts_of(4, [&](int) { return 4LL * (rng() % 256); });
    three_or_four += (w == 3 || w == 4) ? 1 : 0;
  }
  CHECK(three_or_four > 1000);
  check_quote(lesson, "interleaved copies runs ",
              measured("ch03_broadcast_multicast", "speedup.uniform_keys"), 0.1);
  check_quote(lesson, "the copies cost a little: ",
              measured("ch03_broadcast_multicast", "speedup.one_key_for_all"), 0.05);
  check_threshold_quote(lesson, "exercise 2: fast | GPU | at least ", "ch03.uniform_speedup");
  check_threshold_quote(lesson, "uniform keys, and at least ", "ch03.other_keys_speed");
}

TEST_CASE("chapter 04 lesson: the tile tables and the H200 numbers", "[host][lessons]") {
  const std::string lesson = lesson_of("04_tile_columns");
  // Section 1: float tiles, column 5 read by 32 lanes.
  const std::pair<const char*, int> tiles[] = {{"`float tile[32][32]`", 32},
                                               {"`float tile[32][33]`", 33},
                                               {"`float tile[32][34]`", 34},
                                               {"`float tile[32][16]`", 16},
                                               {"`float tile[32][17]`", 17}};
  for (const auto& [name, pitch] : tiles) {
    INFO(name);
    const std::vector<std::string> cells = table_row(lesson, name);
    CHECK(std::stoi(cells.back()) ==
          wavefronts_of(4, [p = pitch](int t) { return 4LL * (t * p + 5); }));
  }
  // Section 3: the least pitch for each element size; columns one word apart behave alike.
  auto least_pitch = [](int bytes, int width) {
    for (int pitch = width;; ++pitch) {
      bool ok = true;
      for (int c = 0; c < std::min(width, std::max(1, 4 / bytes)) && ok; ++c) {
        ok = smem::analyze(smem::WarpRequest::from_lanes(bytes, smem::Op::kLoad, [&](int t) {
               return static_cast<long long>(bytes) * (t * pitch + c);
             })).excess == 0;
      }
      if (ok) return pitch;
    }
  };
  for (int width : {1, 2, 4, 8, 16, 32, 33, 64}) {
    const std::vector<std::string> cells = table_row(lesson, std::to_string(width));
    REQUIRE(cells.size() == 6);
    const int sizes[] = {1, 2, 4, 8, 16};
    for (int k = 0; k < 5; ++k) {
      INFO("width " << width << ", " << sizes[k] << "-byte elements");
      CHECK(std::stoi(cells[static_cast<std::size_t>(k) + 1]) == least_pitch(sizes[k], width));
    }
  }
  check_quote(lesson, "unpadded kernel reaches ",
              measured("ch04_tile_columns", "column_sums.unpadded_fraction_of_copy"), 0.03);
  check_quote(lesson, "bandwidth and the padded one ",
              measured("ch04_tile_columns", "column_sums.fraction_of_copy"), 0.03);
  check_quote(lesson, "a speedup of ",
              measured("ch04_tile_columns", "column_sums.speedup_over_unpadded"), 0.15);
  check_threshold_quote(lesson, "exercise 2: fast | GPU | at least ", "ch04.padding_speedup");
}

TEST_CASE("chapters 05-07 lessons: the transpose ladder's H200 numbers", "[host][lessons]") {
  const std::string tiled = lesson_of("05_tiled_transpose");
  check_quote(tiled, "the naive transpose reaches ",
              measured("ch05_tiled_transpose", "transpose.naive_fraction_of_copy"), 0.02);
  check_quote(tiled, "the tiled kernel reaches ",
              measured("ch05_tiled_transpose", "transpose.fraction_of_copy"), 0.02);
  check_quote(tiled, "of copy: ", measured("ch05_tiled_transpose", "transpose.speedup_over_naive"),
              0.15);
  check_threshold_quote(tiled, "exercise 1: fast | GPU | at least ", "ch05.speedup_over_naive");
  // The tile store of a row is one wavefront, the load of a column 32.
  CHECK(wavefronts_of(4, [](int t) { return 4LL * (5 * 32 + t); }) == 1);
  CHECK(wavefronts_of(4, [](int t) { return 4LL * (t * 32 + 5); }) == 32);

  const std::string padded = lesson_of("06_padded_transpose");
  CHECK(wavefronts_of(4, [](int t) { return 4LL * (33 * t + 7); }) == 1);
  CHECK(wavefronts_of(4, [](int t) { return 4LL * (34 * t + 7); }) == 2);
  check_quote(padded, "padded kernel reaches ",
              measured("ch06_padded_transpose", "transpose.fraction_of_copy"), 0.02);
  check_quote(padded, "against ", measured("ch05_tiled_transpose", "transpose.fraction_of_copy"),
              0.02);
  check_quote(padded, "conflicted tile and ",
              measured("ch06_padded_transpose", "transpose.naive_fraction_of_copy"), 0.02);
  check_threshold_quote(padded, "exercise 2: fast | GPU | at least ", "ch06.fraction_of_copy");

  const std::string swizzled = lesson_of("07_swizzled_transpose");
  for (int r = 0; r < 32; ++r) {  // rows and columns of tile[r][c ^ r] are conflict-free
    CHECK(wavefronts_of(4, [r](int t) { return 4LL * (32 * r + (t ^ r)); }) == 1);
    CHECK(wavefronts_of(4, [r](int t) { return 4LL * (32 * t + (r ^ t)); }) == 1);
  }
  check_quote(swizzled, "swizzled kernel reaches ",
              measured("ch07_swizzled_transpose", "transpose.fraction_of_copy"), 0.02);
  check_quote(swizzled, "under the padded one (",
              measured("ch06_padded_transpose", "transpose.fraction_of_copy"), 0.02);
  check_threshold_quote(swizzled, "exercise 2: fast | GPU | at least ", "ch07.fraction_of_copy");
}

TEST_CASE("chapter 08 lesson: wide requests, the chunk layouts and the H200 numbers",
          "[host][lessons]") {
  using smem::Op;
  using smem::WarpRequest;
  const std::string lesson = lesson_of("08_wide_accesses");
  // Section 1: float2 a[t] (two groups) and float2 pairs[t / 2] (merged pairs, one group).
  for (const WarpRequest& r :
       {WarpRequest::from_lanes(8, Op::kLoad, [](int t) { return 8 * t; }),
        WarpRequest::from_lanes(8, Op::kLoad, [](int t) { return 8 * (t / 2); })}) {
    const std::string picture = quoted_picture(r);
    INFO("picture missing from the lesson:\n" << picture);
    CHECK(lesson.find(picture) != std::string::npos);
  }
  // Section 1: stores never merge; with lanes 16-31 off, an unmerged 8-byte load has ideal 1.
  const auto same_double = [](int) { return 64; };
  CHECK(quoted(lesson, "storing the same `double` takes ") ==
        smem::analyze(WarpRequest::from_lanes(8, Op::kStore, same_double)).wavefronts);
  CHECK(quoted(lesson, "wavefronts where the same load takes ") ==
        smem::analyze(WarpRequest::from_lanes(8, Op::kLoad, same_double)).wavefronts);
  WarpRequest lower_half = WarpRequest::from_lanes(
      8, Op::kLoad, [](int t) { return t < 16 ? 16 * t : smem::kInactive; });
  CHECK_FALSE(smem::pairs_merge(lower_half));
  CHECK(quoted(lesson, "one group left to serve, and ideal ") == smem::analyze(lower_half).ideal);
  // Section 3, quoted up to its first rows: the block load of warp 0 from the row-major tile
  // (lane t reads chunk t / 16 of row 4 (t % 16)), and from the swizzled one.
  const std::string row_major = quoted_picture(WarpRequest::from_lanes(
      16, Op::kLoad, [](int t) { return 1024 * (t % 16) + 16 * (t / 16); }));
  CHECK(lesson.find(row_major.substr(0, row_major.find(" w3 "))) != std::string::npos);
  const std::string swizzled = quoted_picture(WarpRequest::from_lanes(
      16, Op::kLoad, [](int t) { return 1024 * (t % 16) + 16 * ((t / 16) ^ (t % 8)); }));
  CHECK(lesson.find(swizzled.substr(0, swizzled.find("group of lanes 8-15"))) != std::string::npos);
  // Padding rows by 16 bytes: 16 wavefronts; float tile[32][33] rows are aligned every 4th row.
  CHECK(wavefronts_of(16, [](int t) { return 4LL * (68 * 4 * (t % 16) + 4 * (t / 16)); }) == 16);
  for (int r = 0; r < 8; ++r) CHECK(((132 * r) % 16 == 0) == (r % 4 == 0));
  // No uniform padding with aligned rows removes the block load's conflict.
  for (int pitch = 64; pitch <= 128; pitch += 4) {
    INFO("pitch " << pitch << " floats");
    CHECK(wavefronts_of(
              16, [pitch](int t) { return 4LL * (pitch * 4 * (t % 16) + 4 * (t / 16)); }) > 4);
  }

  const std::string file = "ch08_wide_accesses";
  check_quote(lesson, "wide transpose reaches ", measured(file, "transpose.fraction_of_copy"),
              0.02);
  check_quote(lesson, "copy bandwidth, against ",
              measured("ch07_swizzled_transpose", "transpose.fraction_of_copy"), 0.02);
  check_quote(lesson, "scalar swizzled kernel and ",
              measured(file, "transpose.naive_fraction_of_copy"), 0.02);
  check_quote(lesson, "confirm the layout: ", measured(file, "counted.store_wavefronts"), 0);
  check_quote(lesson, "wavefronts per tile store and ", measured(file, "counted.load_wavefronts"),
              0);
  check_quote(lesson, "still reaches ",
              measured("wrong_answers/ch08_row_major_tile_on_gpu/ch08_wide_accesses",
                       "transpose.fraction_of_copy"),
              0.02);
  check_threshold_quote(lesson, "exercise 2: fast | GPU | at least ", "ch08.fraction_of_copy");
}
