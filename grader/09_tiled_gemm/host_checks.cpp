// Chapter 09 host checks: the classic kernel's predictions against the bank model, and the
// layout and thread mapping of the register-blocked SGEMM.
#include <string>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

TEST_CASE("ch09 exercise 1: the classic kernel's accesses, TILE = 16 and TILE = 8", "[host]") {
  for (int tile : ch09::kGradedTiles) {
    for (ch09::Access a : ch09::kAllAccesses) {
      const smem::WarpRequest r = ch09::spec::classic_request(a, tile);
      const int model = smem::analyze(r).wavefronts;
      const int predicted = ch09::predicted_wavefronts(a, tile);
      if (predicted == model) {
        SUCCEED();
        continue;
      }
      // The usual slip: a warp taken as one row of the block (32 threads of one ty).
      const int one_row = smem::analyze(ch09::spec::classic_request(a, 32)).wavefronts;
      const std::string principle =
          predicted == one_row && predicted != model
              ? "That is the answer for a warp of one row of 32 threads (TILE = 32). With TILE = " +
                    std::to_string(tile) + " a warp holds " + std::to_string(32 / tile) +
                    " rows of " + std::to_string(tile) + " threads: ty, ty + 1, ..."
              : "";
      GRADER_EXPECT(
          false,
          grader::prediction_feedback(
              "predicted_wavefronts(" + ch09::spec::name(a) + ", " + std::to_string(tile) + ")",
              predicted, model, ch09::kNotImplemented, r, principle,
              "a warp is 32 consecutive thread numbers ty * TILE + tx: write down the (tx, ty) "
              "of lanes 0, 1, 15, 16 and 31, their addresses, and count distinct words per "
              "bank."));
    }
  }
}

TEST_CASE("ch09 exercise 2a: as_offset is an aligned bijection inside the tile", "[host]") {
  const auto problem = ch09::spec::check_as_layout(ch09::as_offset);
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch09 exercise 2b: the threads own every output of the tile once", "[host]") {
  const auto problem = ch09::spec::check_ownership(ch09::thread_row, ch09::thread_col);
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch09 exercise 2: the transposed store and the inner-loop reads are conflict-free",
          "[host]") {
  if (ch09::spec::check_as_layout(ch09::as_offset) ||
      ch09::spec::check_ownership(ch09::thread_row, ch09::thread_col)) {
    GRADER_SKIP("not checked: exercises 2a and 2b must pass first (see above)");
  }
  const auto problem =
      ch09::spec::check_accesses(ch09::as_offset, ch09::thread_row, ch09::thread_col);
  GRADER_EXPECT(!problem, *problem);
}
