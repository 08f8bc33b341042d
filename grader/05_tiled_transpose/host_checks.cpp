// Chapter 05 host checks: the predictions for the tile store and load, against the bank model,
// on the variant's tile.
#include <string>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace {

void check_prediction(const char* name, int predicted, const smem::WarpRequest& r,
                      const std::string& which, const std::string& hint) {
  auto problem = grader::judge_prediction(
      name, predicted, ch05::kNotImplemented, [&] { return r; }, hint);
  if (problem) problem->line("The case your variant asks about: " + which + ".");
  GRADER_EXPECT(!problem, *problem);
}

}  // namespace

WORKBOOK_CHECK(ex2) {
  // Your variant's tile (variant 0: the kernel's own, row 5 and column 5; there any row and any
  // column give the same counts).
  const ch05::TileCase c = ch05::spec::tile_case(grader::variant::current());
  const std::string row = std::to_string(c.pitch) + " elements of " +
                          std::to_string(c.element_bytes) +
                          " bytes = " + std::to_string(c.pitch * c.element_bytes) + " bytes";
  check_prediction("predicted_tile_store_wavefronts", ch05::predicted_tile_store_wavefronts(),
                   ch05::spec::tile_row_store(c), ch05::spec::store_text(c),
                   "the store writes one row of the tile: 32 consecutive elements.");
  check_prediction("predicted_tile_load_wavefronts", ch05::predicted_tile_load_wavefronts(),
                   ch05::spec::tile_column_load(c), ch05::spec::load_text(c),
                   "the load reads one column: rows are " + row + " apart.");
}
