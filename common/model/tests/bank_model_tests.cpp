// The bank model's rules on known requests, and its error messages and pictures. (Its check
// against every measured H200 case is the maintainers' analyser batch tests,
// tools/maintainer/meson.build.)
#include <sstream>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "common/model/warp_picture.hpp"
#include "grader/harness/catch.hpp"

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
  CHECK(a.active_groups == 4);
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

TEST_CASE("bank model: an inactive partner lets lane pairs merge", "[host][bank_model]") {
  // 8-byte loads, odd lanes inactive: every active lane's partner t ^ 1 is off, so the pairs
  // merge into one group; lanes 0 and 16 (bytes 0 and 128) meet in bank 0: 2 wavefronts, one
  // group, ideal 1, one conflict (measured on H200: w8_inactive_odd).
  auto r = smem::WarpRequest::from_lanes(8, smem::Op::kLoad,
                                         [](int t) { return t % 2 ? smem::kInactive : 8 * t; });
  CHECK(smem::pairs_merge(r));
  smem::Analysis a = smem::analyze(r);
  CHECK(a.groups.size() == 1);
  CHECK(a.wavefronts == 2);
  CHECK(a.ideal == 1);
  CHECK(a.excess == 1);
  // A broadcast double with some lanes off is still one group: 1 wavefront, ideal 1.
  r = smem::WarpRequest::from_lanes(8, smem::Op::kLoad,
                                    [](int t) { return t % 3 == 0 ? smem::kInactive : 64; });
  a = smem::analyze(r);
  CHECK(a.groups.size() == 1);
  CHECK(a.wavefronts == 1);
  CHECK(a.ideal == 1);
  // An active pair that disagrees stops the merge, wherever it is.
  r.address[29] = 72;  // lanes 28 and 31, its partners under t ^ 1 and t ^ 2, read 64
  CHECK_FALSE(smem::pairs_merge(r));
  CHECK(smem::analyze(r).groups.size() == 2);
}

TEST_CASE("bank model: ideal is the number of groups that hold an active lane",
          "[host][bank_model]") {
  // Lanes 0-15 read unpaired doubles, lanes 16-31 are off: two groups, one of them empty.
  auto r = smem::WarpRequest::from_lanes(8, smem::Op::kLoad,
                                         [](int t) { return t < 16 ? 8 * t : smem::kInactive; });
  r.address[1] = 200;  // lanes 0 and 1 now differ, and so would lanes 0 and 2
  REQUIRE_FALSE(smem::pairs_merge(r));
  smem::Analysis a = smem::analyze(r);
  CHECK(a.groups.size() == 2);
  CHECK(a.active_groups == 1);
  CHECK(a.ideal == 1);
  CHECK(a.excess == a.wavefronts - 1);
  // A full 16-byte broadcast: merged pairs, two groups, 2 wavefronts, no conflict.
  r = smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [](int) { return 0; });
  a = smem::analyze(r);
  CHECK(a.wavefronts == 2);
  CHECK(a.ideal == 2);
  CHECK(a.excess == 0);
}

TEST_CASE("bank model: 8- and 16-byte stores never merge lane pairs", "[host][bank_model]") {
  // Every lane stores the same double: two halves of one word pair each (measured on H200:
  // 2 wavefronts, 0 conflicts), where the same load is one group and one wavefront.
  auto r = smem::WarpRequest::from_lanes(8, smem::Op::kStore, [](int) { return 0; });
  CHECK_FALSE(smem::pairs_merge(r));
  smem::Analysis a = smem::analyze(r);
  CHECK(a.groups.size() == 2);
  CHECK(a.wavefronts == 2);
  CHECK(a.ideal == 2);
  CHECK(a.excess == 0);
  r.op = smem::Op::kLoad;
  CHECK(smem::analyze(r).wavefronts == 1);
  // 16-byte stores: always four quarters.
  r = smem::WarpRequest::from_lanes(16, smem::Op::kStore, [](int t) { return 16 * (t / 2); });
  a = smem::analyze(r);
  CHECK(a.groups.size() == 4);
  CHECK(a.wavefronts == 4);
  CHECK(a.excess == 0);
}

TEST_CASE("bank model: ldmatrix, one group per matrix", "[host][bank_model]") {
  // Eight rows at a 128-byte pitch, 16-byte chunk m for matrix m: 8 rows in the same 4 banks.
  const auto rows =
      smem::WarpRequest::ldmatrix(4, [](int t) { return 128 * (t % 8) + 16 * (t / 8); });
  CHECK(smem::analyze(rows).wavefronts == 32);
  CHECK(smem::analyze(rows).ideal == 4);
  // The same rows with chunk ^= row: conflict-free.
  const auto swizzled = smem::WarpRequest::ldmatrix(
      4, [](int t) { return 128 * (t % 8) + 16 * ((t / 8) ^ (t % 8)); });
  CHECK(smem::analyze(swizzled).wavefronts == 4);
  // x1: only lanes 0-7 give rows; the rest are ignored.
  const auto one = smem::WarpRequest::ldmatrix(1, [](int t) { return 16 * t; });
  CHECK(smem::analyze(one).wavefronts == 1);
  CHECK(smem::analyze(one).ideal == 1);
  auto missing = one;
  missing.address[3] = smem::kInactive;
  CHECK_THROWS_WITH(smem::analyze(missing),
                    GRADER_CONTAINS("lane 3 gives no row address, but ldmatrix.x1 needs rows"));
  auto narrow = one;
  narrow.width_bytes = 8;
  CHECK_THROWS_WITH(smem::analyze(narrow), GRADER_CONTAINS("ldmatrix rows are 16 bytes"));
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
