// Chapter 05 host checks: the predictions for the tile store and load, against the bank model.
#include <string>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

void check_prediction(const char* name, int predicted, const smem::WarpRequest& r,
                      const char* hint) {
  const auto problem = grader::judge_prediction(
      name, predicted, ch05::kNotImplemented, [&] { return r; }, hint);
  GRADER_EXPECT(!problem, *problem);
}

}  // namespace

TEST_CASE("ch05 exercise 2: predictions for the tile store and load", "[host]") {
  // Any row and any column give the same counts; the grader asks about row 5 and column 5.
  check_prediction("predicted_tile_store_wavefronts", ch05::predicted_tile_store_wavefronts(),
                   ch05::spec::tile_row_store(5),
                   "the store writes one row of the tile: 32 consecutive floats.");
  check_prediction("predicted_tile_load_wavefronts", ch05::predicted_tile_load_wavefronts(),
                   ch05::spec::tile_column_load(5),
                   "the load reads one column: rows are 32 floats = 128 bytes apart.");
}
