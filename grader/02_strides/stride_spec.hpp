// Chapter 02: the strides exercise 1 is graded on, and their requests, for the host checks and
// the lesson checks alike.
#pragma once

#include <vector>

#include "common/model/bank_model.hpp"

namespace ch02::spec {

/// A full warp where lane t loads element `stride * t` of an array of `element_bytes` elements.
inline smem::WarpRequest stride_request(int stride, int element_bytes) {
  return smem::WarpRequest::from_lanes(
      element_bytes, smem::Op::kLoad,
      [stride, element_bytes](int t) { return 1LL * stride * element_bytes * t; });
}

/// One graded (stride, element size) pair.
struct StrideCase {
  int stride;
  int element_bytes;
};

/// The pairs exercise 1 answers for: strides 0..64 of floats, shorts and bytes whose byte stride
/// is a multiple of 4 or below 4.
inline std::vector<StrideCase> graded_strides() {
  std::vector<StrideCase> cases;
  for (int bytes : {4, 2, 1}) {
    for (int stride = 0; stride <= 64; ++stride) {
      if (stride * bytes % 4 == 0 || stride * bytes < 4) cases.push_back({stride, bytes});
    }
  }
  return cases;
}

}  // namespace ch02::spec
