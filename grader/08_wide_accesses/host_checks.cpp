// Chapter 08 host checks: the 16-byte chunk layouts, the swizzle rule's and the kernel's (bounds,
// alignment, bijection, conflicts), and the predictions, against the bank model.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/bank_model.hpp"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

void check_prediction(const char* name, int predicted,
                      const std::function<smem::WarpRequest()>& request, const std::string& hint) {
  const auto problem =
      grader::judge_prediction(name, predicted, ch08::kNotImplemented, request, hint);
  GRADER_EXPECT(!problem, *problem);
}

// A prediction about the kernel's own tile accesses: its request is made by the exercise's
// layout, so it is checked once that layout passes exercise 1.
void check_own_prediction(const char* name, int predicted,
                          const std::function<smem::WarpRequest()>& request, const char* hint) {
  if (predicted != ch08::kNotImplemented && !ch08::spec::layout_is_right()) {
    GRADER_EXPECT(false,
                  grader::Feedback(std::string(name) +
                                   "() is checked once tile_chunk_offset is right (exercise 1).")
                      .hint("the grader asks the bank model about your kernel's tile accesses "
                            "through your layout; see exercise 1's check above."));
    return;
  }
  check_prediction(name, predicted, request, hint);
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  // The rule at the widths a local run asks (the kernel's 16 chunks a row, and 8; official
  // grading asks wider), then the kernel's tile.
  if (auto problem = ch08::spec::swizzle_rule_problem({16, 8})) GRADER_FAIL(*problem);
  const auto problem = ch08::spec::check_chunk_layout(ch08::tile_chunk_offset);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex3) {
  // Your variant's requests (the grader's report lists them); with a layout that passes
  // exercise 1, every tile store and load of the kernel is alike.
  const ch08::spec::Exercise3Case c = ch08::spec::exercise3_case(grader::variant::current());
  INFO("your variant's cases: the tile store is "
       << ch08::spec::store_text(c) << "; the tile load is " << ch08::spec::load_text(c));
  check_own_prediction(
      "predicted_tile_store_wavefronts", ch08::predicted_tile_store_wavefronts(),
      [&] {
        return ch08::spec::tile_store(ch08::tile_chunk_offset, c.store_warp, c.store_instruction);
      },
      "a 16-byte request is served in groups of 8 lanes; even a conflict-free "
      "group is one wavefront.");
  check_own_prediction(
      "predicted_tile_load_wavefronts", ch08::predicted_tile_load_wavefronts(),
      [&] {
        return ch08::spec::tile_load(ch08::tile_chunk_offset, c.load_warp, c.load_instruction);
      },
      "count each group of 8 lanes separately and add.");
  // The two rules: your variant's case, then fresh ones each run draws.
  std::vector<ch08::spec::Exercise3Case> cases = {c};
  for (const auto& fresh : ch08::spec::fresh_exercise3_cases()) cases.push_back(fresh);
  const auto padded = grader::judge_rule(
      "predicted_padded_load_wavefronts(pitch_floats, load_bytes)", ch08::kNotImplemented, cases,
      [](const ch08::spec::Exercise3Case& e) {
        return ch08::predicted_padded_load_wavefronts(e.padded_pitch, e.padded_bytes);
      },
      ch08::spec::padded_load, ch08::spec::padded_text,
      [](const ch08::spec::Exercise3Case& e) {
        return "in float tile[64][" + std::to_string(e.padded_pitch) + "] rows 4 apart are 4 x " +
               std::to_string(e.padded_pitch) +
               " floats apart: which banks does each of the rows of a group use? (" +
               std::to_string(e.padded_bytes) + "-byte requests are served in groups of " +
               std::to_string(128 / std::max(e.padded_bytes, 4)) + " lanes.)";
      });
  GRADER_EXPECT(!padded, *padded);
  const auto pairs = grader::judge_rule(
      "predicted_float2_pairs_store_wavefronts(stride)", ch08::kNotImplemented, cases,
      [](const ch08::spec::Exercise3Case& e) {
        return ch08::predicted_float2_pairs_store_wavefronts(e.pairs_stride);
      },
      ch08::spec::pairs_store, ch08::spec::pairs_text,
      [](const ch08::spec::Exercise3Case&) {
        return std::string(
            "lane pairs merge for loads only: an 8-byte store is always two groups of 16 lanes; "
            "count each group's distinct words per bank.");
      });
  GRADER_EXPECT(!pairs, *pairs);
}
