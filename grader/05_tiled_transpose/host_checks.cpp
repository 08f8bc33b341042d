// Chapter 05 host checks: the predictions for the tile store and load, against the bank model.
#include <string>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

// tile[row][lane] (a row) or tile[lane][column] (a column) of float tile[32][32].
smem::WarpRequest tile_access(bool column, smem::Op op) {
  return smem::WarpRequest::from_lanes(
      4, op, [column](int t) { return 4LL * (column ? t * 32 + 5 : 5 * 32 + t); });
}

void check_prediction(const char* name, int predicted, const smem::WarpRequest& r,
                      const char* hint) {
  const auto problem = grader::judge_prediction(
      name, predicted, ch05::kNotImplemented, [&] { return r; }, hint);
  GRADER_EXPECT(!problem, *problem);
}

}  // namespace

TEST_CASE("ch05 exercise 2: predictions for the tile store and load", "[host]") {
  check_prediction("predicted_tile_store_wavefronts", ch05::predicted_tile_store_wavefronts(),
                   tile_access(false, smem::Op::kStore),
                   "the store writes one row of the tile: 32 consecutive floats.");
  check_prediction("predicted_tile_load_wavefronts", ch05::predicted_tile_load_wavefronts(),
                   tile_access(true, smem::Op::kLoad),
                   "the load reads one column: rows are 32 floats = 128 bytes apart.");
}
