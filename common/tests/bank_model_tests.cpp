// The bank model against the measured H200 cases, and its error messages and pictures.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bank_model.hpp"
#include "catch.hpp"
#include "warp_picture.hpp"

namespace {

struct MeasuredCase {
  std::string name;
  smem::WarpRequest request;
  int wavefronts = 0;
  int conflicts = 0;
};

std::vector<MeasuredCase> read_cases(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<MeasuredCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    MeasuredCase c;
    std::string op;
    fields >> c.name >> c.request.width_bytes >> op >> c.wavefronts >> c.conflicts;
    c.request.op = op == "store" ? smem::Op::kStore : smem::Op::kLoad;
    for (auto& a : c.request.address) fields >> a;
    REQUIRE_FALSE(fields.fail());
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

TEST_CASE("bank model reproduces every measured H200 case", "[host][bank_model]") {
  const std::vector<MeasuredCase> cases = read_cases(WORKBOOK_H200_CASES);
  REQUIRE(cases.size() >= 40);
  for (const MeasuredCase& c : cases) {
    INFO(c.name << "\n" << smem::draw_request(c.request));
    const smem::Analysis a = smem::analyze(c.request);
    CHECK(a.wavefronts == c.wavefronts);
    CHECK(a.excess == c.conflicts);
  }
}

TEST_CASE("bank model: bank and word of an address", "[host][bank_model]") {
  CHECK(smem::bank_of(0) == 0);
  CHECK(smem::bank_of(3) == 0);
  CHECK(smem::bank_of(4) == 1);
  CHECK(smem::bank_of(124) == 31);
  CHECK(smem::bank_of(128) == 0);
  CHECK(smem::word_of(131) == 32);
}

TEST_CASE("bank model: groups are never repacked", "[host][bank_model]") {
  // 16-byte loads: lanes 0-7 at a 128-byte stride (8 words in banks 0-3), then 24 contiguous.
  const auto r = smem::WarpRequest::from_lanes(
      16, smem::Op::kLoad, [](int t) { return t < 8 ? 128 * t : 1024 + 16 * t; });
  const smem::Analysis a = smem::analyze(r);
  CHECK(a.groups.size() == 4);
  CHECK(a.wavefronts == 8 + 1 + 1 + 1);
  CHECK(a.ideal == 4);
  CHECK(a.excess == 7);
  CHECK(a.ways == 8);
}

TEST_CASE("bank model: inactive lanes touch nothing", "[host][bank_model]") {
  auto r = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 128 * t; });
  for (int t = 1; t < 32; ++t) r.address[t] = smem::kInactive;
  CHECK(smem::analyze(r).wavefronts == 1);
  for (auto& a : r.address) a = smem::kInactive;
  const smem::Analysis none = smem::analyze(r);
  CHECK(none.wavefronts == 0);
  CHECK(none.ideal == 0);
}

TEST_CASE("bank model: the per-bank detail lists words and their lanes", "[host][bank_model]") {
  // Two words in bank 0, 16 lanes on each.
  const auto r =
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 128 * (t % 2); });
  const smem::Analysis a = smem::analyze(r);
  REQUIRE(a.groups.size() == 1);
  const auto& bank0 = a.groups[0].banks[0];
  REQUIRE(bank0.size() == 2);
  CHECK(bank0[0].word == 0);
  CHECK(bank0[1].word == 32);
  CHECK(bank0[0].lanes.size() == 16);
  CHECK(bank0[1].lanes.front() == 1);
  CHECK(a.groups[0].banks[1].empty());
}

TEST_CASE("bank model: malformed requests are refused with the reason", "[host][bank_model]") {
  auto r = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 4 * t; });
  r.width_bytes = 3;
  CHECK_THROWS_WITH(smem::analyze(r), "access width 3 bytes is not one of 1, 2, 4, 8, 16");
  r.width_bytes = 8;
  CHECK_THROWS_WITH(smem::analyze(r),
                    GRADER_CONTAINS("lane 1: address 4 is not aligned to the access "
                                    "width of 8 bytes"));
  r.width_bytes = 4;
  r.address[5] = -7;
  CHECK_THROWS_WITH(smem::analyze(r), GRADER_CONTAINS("lane 5: address -7 is negative"));
  r.address[5] = 20;
  CHECK_THROWS_WITH(smem::validate(r, 64),
                    GRADER_CONTAINS("lane 16: address 64 + 4 bytes ends beyond the "
                                    "shared-memory size of 64 bytes"));
  CHECK_NOTHROW(smem::validate(r, 128));
}

TEST_CASE("warp picture: lanes on banks, conflicts marked", "[host][bank_model]") {
  const auto r = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 8 * t; });
  const std::string picture = smem::draw_request(r);
  std::istringstream lines(picture);
  std::string summary, header, row1, row2, marks;
  std::getline(lines, summary);
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  std::getline(lines, marks);
  CHECK(summary ==
        "4-byte load, 32 active lanes: 1 group, 2 wavefronts (ideal 1, excess 1), 2-way");
  CHECK(header.rfind(" bank 0  1  2  3  4 ", 0) == 0);
  CHECK(row1.rfind(" w1   0  .  1  .  2  . ", 0) == 0);
  CHECK(row2.rfind(" w2  16  . 17  . 18  . ", 0) == 0);
  CHECK(marks.rfind("      ^     ^     ^     ^", 0) == 0);
  CHECK(marks.back() == '^');  // trailing blanks trimmed
  // A broadcast is one row, the lane flagged as shared.
  const auto all = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int) { return 28; });
  const std::string broadcast = smem::draw_request(all);
  CHECK(broadcast.find(" w1   .  .  .  .  .  .  .  0* .  .") != std::string::npos);
  CHECK(broadcast.find("^") == std::string::npos);
}
