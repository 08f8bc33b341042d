// Chapter 12: the epilogue's store as the bank model sees it: one warp of a consumer warpgroup
// storing accumulators d[4 i] and d[4 i + 1] as one float2 into a C tile of `pitch` floats (the
// question of exercises 2b and 2c; the pitch is the student's).
#pragma once

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"

namespace ch12::spec {

/// Lane t of warp 0 stores 8 bytes at float pitch * accumulator_row(t, 0) + accumulator_col(t, 0)
/// (every i gives the same banks: 8 i floats further).
inline smem::WarpRequest epilogue_store(int pitch) {
  return smem::WarpRequest::from_lanes(8, smem::Op::kStore, [pitch](int t) {
    return 4LL * (1LL * pitch * ch12::accumulator_row(t, 0) + ch12::accumulator_col(t, 0));
  });
}

}  // namespace ch12::spec
