// Chapter 09 host checks: the classic kernel's predictions against the bank model, and the
// layout and thread mapping of the register-blocked SGEMM.
#include <string>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("ch09 exercise 1: the classic kernel's accesses, TILE = 16 and TILE = 8", "[host]") {
  for (int tile : ch09::kGradedTiles) ch09::spec::check_classic_predictions(tile);
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
