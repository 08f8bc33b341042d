// Chapter @NN@ host checks: the layout and the prediction, against the bank model.
#include "chapters/@NN@_@SLUG@/@SLUG@.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/transpose/tile_layout_check.hpp"

WORKBOOK_CHECK(ex1) {
  const auto problem =
      transpose::check_tile_layout("tile_index", ch@NN@::tile_index, ch@NN@::kTileWords);
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(ex2) {
  const auto problem = grader::judge_prediction(
      "predicted_plain_column_wavefronts", ch@NN@::predicted_plain_column_wavefronts(),
      ch@NN@::kNotImplemented,
      [] {
        return smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                             [](int t) { return 4LL * 32 * t; });
      },
      "rows of float tile[32][32] are 128 bytes apart: which bank does each row start in?");
  GRADER_EXPECT(!problem, *problem);
}
