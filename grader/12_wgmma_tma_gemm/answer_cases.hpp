// Chapter 12: the cases of exercise 1 that the host checks hold to digests of the reference's
// descriptors (grader/harness/answer_digest.hpp), and the request exercise 2b and 2c ask about.
// The hand-out holds no descriptor, no pitch and no prediction: exercise 2b is held to its
// properties on the bank model, exercise 2c to the bank model itself.
#pragma once

#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/12_wgmma_tma_gemm/answer_digests.hpp"
#include "grader/harness/answer_digest.hpp"

namespace ch12::spec {

/// "k128B", "k64B", "k32B", "kInterleave".
inline const char* name(OperandLayout layout) {
  switch (layout) {
    case OperandLayout::kInterleave: return "kInterleave";
    case OperandLayout::k128B: return "k128B";
    case OperandLayout::k64B: return "k64B";
    case OperandLayout::k32B: return "k32B";
  }
  return "(not a layout)";
}

// ---------------------------------------------------------------------------------------------
// Exercise 1
// ---------------------------------------------------------------------------------------------

/// One digested group of exercise 1: a layout and a K-tile's rows.
struct DescriptorCase {
  OperandLayout layout = OperandLayout::k128B;
  int rows = 64;
};

/// One call of wgmma_descriptor.
struct DescriptorCall {
  OperandLayout layout = OperandLayout::k128B;
  unsigned tile_address = 0;
  int rows = 64, k16 = 0, row0 = 0;
};

/// The tile addresses each case tries (multiples of 1024 in the shared window).
inline std::vector<unsigned> tile_addresses() {
  return {0x400u, 0x9000u, 0x1c000u};
}

/// The K-tile rows exercise 1 tries.
inline std::vector<int> rows_tried() {
  return {64, 128, 256};
}

/// Exercise 1's digested groups: every layout, every K-tile of rows_tried().
inline std::vector<DescriptorCase> descriptor_cases() {
  std::vector<DescriptorCase> cases;
  for (OperandLayout layout : kOperandLayouts) {
    for (int rows : rows_tried()) cases.push_back({layout, rows});
  }
  return cases;
}

/// The calls of a group, at the tiles `tiles`: every tile, every k16 step, every first row
/// (a multiple of 8, row0 + 64 <= rows), in that order.
inline std::vector<DescriptorCall> calls_of(const DescriptorCase& c,
                                            const std::vector<unsigned>& tiles) {
  std::vector<DescriptorCall> calls;
  for (unsigned tile : tiles) {
    for (int k16 = 0; k16 < 4; ++k16) {
      for (int row0 = 0; row0 + 64 <= c.rows; row0 += 8) {
        calls.push_back({c.layout, tile, c.rows, k16, row0});
      }
    }
  }
  return calls;
}

/// "0x9000".
inline std::string hex(unsigned long long value) {
  static const char* const digits = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[value % 16]);
    value /= 16;
  } while (value != 0);
  return "0x" + out;
}

/// "wgmma_descriptor(k128B, 0x9000, 128, 2, 64)".
inline std::string call_text(const DescriptorCall& c) {
  return std::string("wgmma_descriptor(") + name(c.layout) + ", " + hex(c.tile_address) + ", " +
         std::to_string(c.rows) + ", " + std::to_string(c.k16) + ", " + std::to_string(c.row0) +
         ")";
}

/// "wgmma_descriptor(k128B, 128 rows)": the digested group's name.
inline std::string case_name(const DescriptorCase& c) {
  return std::string("wgmma_descriptor(") + name(c.layout) + ", " + std::to_string(c.rows) +
         " rows)";
}

/// The digested case: `descriptor_fn(layout, tile, rows, k16, row0)` of every call of the
/// group, in the order of calls_of.
template <typename Descriptor>
grader::DigestCase descriptor_case(const DescriptorCase& c, Descriptor descriptor_fn) {
  grader::DigestCase d{case_name(c), {}};
  for (const DescriptorCall& call : calls_of(c, tile_addresses())) {
    d.values.push_back(static_cast<long long>(
        descriptor_fn(call.layout, call.tile_address, call.rows, call.k16, call.row0)));
  }
  return d;
}

/// How the exercise's wgmma_descriptor compares with the reference's on group `c`.
inline grader::DigestMatch descriptor_match(const DescriptorCase& c) {
  return grader::match_digest(grader::chapter::kAnswerDigests,
                              descriptor_case(c, ch12::wgmma_descriptor));
}

// ---------------------------------------------------------------------------------------------
// Exercise 2b and 2c
// ---------------------------------------------------------------------------------------------

/// The epilogue's request at `pitch` floats: one warp's 8-byte store of d[4 i], d[4 i + 1]
/// (i = 0; any i only moves every address by 8 i words), lane t storing its two floats at word
/// pitch * accumulator_row(t, 0) + accumulator_col(t, 0) of the C tile. The question, not the
/// answer.
inline smem::WarpRequest epilogue_store(int pitch) {
  return smem::WarpRequest::from_lanes(8, smem::Op::kStore, [pitch](int t) {
    return 4LL * (1LL * pitch * accumulator_row(t, 0) + accumulator_col(t, 0));
  });
}

/// "lane t stores d[0], d[1] (8 bytes) at word 258 * accumulator_row(t, 0) + accumulator_col(t,
/// 0)".
inline std::string epilogue_text(int pitch) {
  return "one warp's 8-byte store of d[4 i], d[4 i + 1] into a C tile of pitch " +
         std::to_string(pitch) + " floats (lane t: word " + std::to_string(pitch) +
         " * accumulator_row(t, 0) + accumulator_col(t, 0))";
}

}  // namespace ch12::spec
