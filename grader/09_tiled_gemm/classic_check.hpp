// Chapter 09: the host check of exercise 1 for one tile size: each of the classic kernel's seven
// accesses, predicted, against the bank model's wavefronts for the request the contract states.
#pragma once

#include <string>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/09_tiled_gemm/classic_cases.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace ch09::spec {

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
