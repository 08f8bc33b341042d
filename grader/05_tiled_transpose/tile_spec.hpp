// Chapter 05: the question of exercise 2, the two tile accesses of the contract's kernel, as
// requests for the bank model (the student's calculator). It holds no answer.
#pragma once

#include "common/model/bank_model.hpp"

namespace ch05::spec {

/// A warp of float tile[32][32] storing row `row` (lane x writes tile[row][x]).
inline smem::WarpRequest tile_row_store(int row) {
  return smem::WarpRequest::from_lanes(4, smem::Op::kStore,
                                       [row](int t) { return 4LL * (row * 32 + t); });
}

/// A warp of float tile[32][32] loading column `column` (lane x reads tile[x][column]).
inline smem::WarpRequest tile_column_load(int column) {
  return smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                       [column](int t) { return 4LL * (t * 32 + column); });
}

}  // namespace ch05::spec
