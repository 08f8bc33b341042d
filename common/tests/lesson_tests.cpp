// Lessons say what the model and the measurements say: every picture in chapter 01's lesson is
// what draw_request draws, and every cycle count it quotes is the committed H200 measurement.
#include <fstream>
#include <sstream>
#include <string>

#include "bank_model.hpp"
#include "catch.hpp"
#include "measurements.hpp"
#include "warp_picture.hpp"

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
