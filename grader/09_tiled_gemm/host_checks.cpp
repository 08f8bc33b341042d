// Chapter 09 host checks: the classic kernel's predictions against the bank model, and the
// layout and thread mapping of the register-blocked SGEMM.
#include <string>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/variant.hpp"

WORKBOOK_CHECK(ex1) {
  const grader::variant::Identity& v = grader::variant::current();
  const std::string whose = v.self_study() ? "" : "Your variant's tile: ";
  bool right = true;
  for (const ch09::spec::GradedTile& t : ch09::spec::graded_tiles(v)) {
    right = ch09::spec::check_classic_predictions(t.tile, t.k, whose) && right;
  }
  // Then fresh tiles each run draws (official grading's from its own seed): the rule, not a
  // table of your variant's numbers.
  for (const ch09::spec::GradedTile& t : ch09::spec::fresh_tiles()) {
    right = right && ch09::spec::check_classic_predictions(
                         t.tile, t.k, "A fresh tile, TILE = " + std::to_string(t.tile) + ": ");
  }
}

WORKBOOK_CHECK(ex2a) {
  const auto problem = ch09::spec::check_as_layout(ch09::as_offset);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2b) {
  const auto problem = ch09::spec::check_ownership(ch09::thread_row, ch09::thread_col);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2) {
  // Only a valid layout and mapping have conflicts to count: a layout that sends every lane to
  // one word is a broadcast, one wavefront, and keeps nothing. So this check fails until exercises
  // 2a and 2b pass.
  if (ch09::spec::check_as_layout(ch09::as_offset)) {
    GRADER_FAIL(grader::not_judged_while_invalid(
        "as_offset is not an aligned bijection inside the tile yet (exercise 2a)",
        ::grader::chapter::checks::ex2a.name));
  }
  if (ch09::spec::check_ownership(ch09::thread_row, ch09::thread_col)) {
    GRADER_FAIL(grader::not_judged_while_invalid(
        "the threads do not own every output of the tile once yet (exercise 2b)",
        ::grader::chapter::checks::ex2b.name));
  }
  if (const auto problem =
          ch09::spec::check_accesses(ch09::as_offset, ch09::thread_row, ch09::thread_col)) {
    GRADER_FAIL(*problem);
  }
  // Then the pitch as a rule: the kernel's block of 128 rows, then every block the local runs
  // ask (official grading asks larger).
  std::vector<int> blocks = {ch09::kBlockM};
  for (const int b : ch09::spec::block_rows(16, ch09::kBlockM - 4)) blocks.push_back(b);
  const auto problem = ch09::spec::pitch_rule_problem(blocks);
  GRADER_EXPECT(!problem, *problem);
}
