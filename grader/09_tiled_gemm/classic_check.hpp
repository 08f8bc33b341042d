// Chapter 09, exercise 1: which tiles it grades for a variant, and its host check for one tile
// size: each of the classic kernel's seven accesses, predicted, against the bank model's
// wavefronts for the request the contract states. Self-study grades the workbook's own TILE = 16
// and TILE = 8; a class variant grades four tiles of its own (any TILE of the contract, 4 to 31:
// TILE = 32 is the lesson's worked case), each at an inner-loop column k of its own.
#pragma once

#include <string>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace ch09::spec {

/// One tile exercise 1 asks about, and the column k of the inner loop its accesses are taken at.
struct GradedTile {
  int tile;
  int k;
};

/// Exercise 1's tiles for variant `v`, in the order the checks ask them. A class variant's first
/// tile is one whose column reads conflict (some bank holds two or more of the column's TILE
/// words); its second one whose column reads do not (an odd TILE, an even one whose column
/// still meets every bank at most once, or TILE = 4, a block smaller than a warp); its third
/// and fourth any others.
inline std::vector<GradedTile> graded_tiles(const grader::variant::Identity& v) {
  if (v.self_study()) return {{16, 5}, {8, 5}};  // k = 5 % TILE, as the checks always asked
  grader::variant::Draw d(v, "ch09");
  const int first = d.pick(std::vector<int>{8, 12, 16, 18, 20, 22, 24, 26, 28, 30});
  const int second =
      d.pick(std::vector<int>{4, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 19, 21, 23, 25, 27, 29, 31});
  std::vector<int> others;  // two more of any kind, neither of the others
  for (int tile = 4; tile <= 31; ++tile) {
    if (tile != first && tile != second) others.push_back(tile);
  }
  std::vector<GradedTile> tiles;
  for (int tile : {first, second}) tiles.push_back({tile, d.between(0, tile - 1)});
  for (int tile : d.some(others, 2)) tiles.push_back({tile, d.between(0, tile - 1)});
  return tiles;
}

/// Two fresh tiles of the contract (4 to 31; 32 is the lesson's worked case) for exercise 1's
/// rule (grader::variant::fresh_draw), each at a column k of its own.
inline std::vector<GradedTile> fresh_tiles() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch09");
  std::vector<GradedTile> tiles;
  for (int i = 0; i < 2; ++i) {
    const int tile = d.between(4, 31);
    tiles.push_back({tile, d.between(0, tile - 1)});
  }
  return tiles;
}

/// "TILE = 16 (k = 5)".
inline std::string tile_words(const GradedTile& t) {
  return "TILE = " + std::to_string(t.tile) + " (k = " + std::to_string(t.k) + ")";
}

/// Which threads one warp holds with TILE = `tile`, in words, for messages.
inline std::string warp_of(int tile) {
  if (tile * tile < 32) {
    return "the block is " + std::to_string(tile * tile) + " threads, one warp whose lanes " +
           std::to_string(tile * tile) + "-31 are idle: " + std::to_string(tile) + " rows of " +
           std::to_string(tile) + " threads";
  }
  if (32 % tile == 0) {
    return "a warp holds " + std::to_string(32 / tile) + " rows of " + std::to_string(tile) +
           " threads: ty, ty + 1, ...";
  }
  return "warp 0 holds " + std::to_string(32 / tile) + " whole rows of " + std::to_string(tile) +
         " threads and the first " + std::to_string(32 % tile) +
         " threads of row ty = " + std::to_string(32 / tile);
}

/// The targeted explanation of a prediction that treats `As[k][ty]` as a conflict, the headline
/// slip of the write-up the lesson corrects (section 1: "32-way"); empty for any other case.
inline std::string transposed_read_slip(Access a, int tile, int predicted, int model) {
  if (a != Access::kReadAsTransposed || predicted <= model) return "";
  return "As[k][ty] is not a conflict: ty is not the lane. With TILE = " + std::to_string(tile) +
         " " + warp_of(tile) +
         "; the lanes of one ty all read the same word As[k][ty] (a broadcast), and the warp's few "
         "ty values are neighbouring words of row k. Calling it " +
         std::to_string(predicted) +
         "-way reasons as if ty ran through the warp like tx (the published slip of section 1).";
}

/// Checks predicted_wavefronts(a, tile) for every access against the bank model, on warp 0's
/// request at inner-loop column `k`; true when every one is right. `whose` says whose case it
/// is, for messages ("your variant's case: ").
inline bool check_classic_predictions(int tile, int k, const std::string& whose = "") {
  bool right = true;
  for (Access a : kAllAccesses) {
    const smem::WarpRequest r = classic_request(a, tile, 0, k);
    const int model = smem::analyze(r).wavefronts;
    const int predicted = predicted_wavefronts(a, tile);
    if (predicted == model) {
      SUCCEED();
      continue;
    }
    // The usual slip: a warp taken as one row of the block (32 threads of one ty).
    const int one_row = smem::analyze(classic_request(a, 32)).wavefronts;
    right = false;
    const std::string slip = transposed_read_slip(a, tile, predicted, model);
    const std::string principle =
        !slip.empty() ? slip
        : predicted == one_row && tile != 32
            ? "That is the answer for a warp of one row of 32 threads (TILE = 32). With TILE = " +
                  std::to_string(tile) + " " + warp_of(tile) + "."
            : "";
    GRADER_EXPECT(false,
                  grader::prediction_feedback(
                      whose + "predicted_wavefronts(" + name(a) + ", " + std::to_string(tile) + ")",
                      predicted, model, kNotImplemented, r, principle,
                      "a warp is 32 consecutive thread numbers ty * TILE + tx: write down "
                      "the (tx, ty) of lanes 0, 1, 15, 16 and 31, their addresses, and "
                      "count distinct words per bank."));
  }
  return right;
}

}  // namespace ch09::spec
