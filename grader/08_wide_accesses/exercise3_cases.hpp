// Chapter 08: the requests exercise 3's four predictions are about, drawn from the student's
// variant (grader/harness/variant.hpp). Variant 0 asks what the workbook always asked: warp 0's
// first tile store and first block load, that load from float tile[64][68], and lane t storing
// pairs[t / 2]. A class variant asks about another warp and instruction of the kernel, another
// padding and width of the padded load, and another stride of the float2 store.
#pragma once

#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/bank_model.hpp"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/harness/variant.hpp"

namespace ch08::spec {

/// The cases of exercise 3's four predictions.
struct Exercise3Case {
  int store_warp = 0;            ///< the tile store: warp w (0..7) ...
  int store_instruction = 0;     ///< ... its store i (0..3): tile rows 2 w + 16 i and the next
  int load_warp = 0;             ///< the tile load: warp w (0..7) ...
  int load_instruction = 0;      ///< ... its load k (0..3) of its 4 x 4 blocks
  int padded_pitch = kTile + 4;  ///< the padded tile's row, in floats (64 + 4 p, p = 1..31)
  int padded_bytes = 16;         ///< bytes each lane of the padded load reads (4, 8 or 16)
  int pairs_stride = 1;          ///< lane t stores pairs[pairs_stride * (t / 2)] (1..64)
};

/// The most padded tile's pitch the rules' contract allows, in floats: 64 + 4 x 31 (a block's
/// 48 KiB of shared memory hold it: the GPU check measures the variant's load in it).
constexpr int kMostPaddedPitch = kTile + 4 * 31;

/// Draws the padded load's warp, load, padding and width, and the float2 store's stride, in
/// that order, from the whole of the rules' contract.
inline void draw_load_and_rules(grader::variant::Draw& d, Exercise3Case& c) {
  c.load_warp = d.between(0, kBlockSide / 2 - 1);
  c.load_instruction = d.between(0, 3);
  c.padded_pitch = kTile + 4 * d.between(1, (kMostPaddedPitch - kTile) / 4);
  c.padded_bytes = d.pick(std::vector<int>{4, 8, 16});
  c.pairs_stride = d.between(1, 64);
}

/// The variant's cases of exercise 3 (variant 0: the workbook's own).
inline Exercise3Case exercise3_case(const grader::variant::Identity& v) {
  Exercise3Case c;
  grader::variant::Draw d(v, "ch08");
  if (d.self_study()) return c;
  c.store_warp = d.between(0, kBlockSide / 2 - 1);
  c.store_instruction = d.between(0, kTile / kBlockSide - 1);
  draw_load_and_rules(d, c);
  return c;
}

/// Fresh cases for exercise 3's two rules (grader::variant::fresh_draw), graded after the
/// variant's: the padded load of any warp and load at any padding and width, the float2 store at
/// any stride of the rules' contract.
inline std::vector<Exercise3Case> fresh_exercise3_cases() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch08");
  std::vector<Exercise3Case> cases(4);
  for (Exercise3Case& c : cases) draw_load_and_rules(d, c);
  return cases;
}

/// The padded tile of the case: `float tile[64][pitch]`.
inline Layout padded_layout(int pitch) {
  return [pitch](int row, int chunk) { return row * pitch + 4 * chunk; };
}

/// The case's padded load: the block load k of warp w (thread (x, y) at chunk y of tile row
/// 4 x + k) from `float tile[64][pitch]`, each lane reading the first `bytes` bytes of its chunk.
inline smem::WarpRequest padded_load(const Exercise3Case& c) {
  const Layout offset = padded_layout(c.padded_pitch);
  return smem::WarpRequest::from_lanes(c.padded_bytes, smem::Op::kLoad, [&](int t) {
    return 4LL * offset(4 * thread_x(t) + c.load_instruction, thread_y(c.load_warp, t));
  });
}

/// The case's float2 store: lane t stores the float2 pairs[stride * (t / 2)].
inline smem::WarpRequest pairs_store(const Exercise3Case& c) {
  const int stride = c.pairs_stride;
  return smem::WarpRequest::from_lanes(8, smem::Op::kStore,
                                       [stride](int t) { return 8LL * stride * (t / 2); });
}

inline std::string vector_of(int bytes) {
  return bytes == 4 ? "float" : bytes == 8 ? "float2" : "float4";
}

/// The cases in words, as the grader's report and its messages say them.
inline std::string store_text(const Exercise3Case& c) {
  const int row = 2 * c.store_warp + kBlockSide * c.store_instruction;
  return "warp " + std::to_string(c.store_warp) + "'s tile store " +
         std::to_string(c.store_instruction) + " (its float4 chunks 0-15 of tile rows " +
         std::to_string(row) + " and " + std::to_string(row + 1) + "), with your layout";
}
inline std::string load_text(const Exercise3Case& c) {
  const int k = c.load_instruction;
  return "warp " + std::to_string(c.load_warp) + "'s tile load " + std::to_string(k) +
         " (float4 chunks " + std::to_string(2 * c.load_warp) + " and " +
         std::to_string(2 * c.load_warp + 1) + " of tile rows " + std::to_string(k) + ", " +
         std::to_string(4 + k) + ", ..., " + std::to_string(60 + k) + "), with your layout";
}
inline std::string padded_text(const Exercise3Case& c) {
  return "that load of warp " + std::to_string(c.load_warp) + " (load " +
         std::to_string(c.load_instruction) + ") from float tile[64][" +
         std::to_string(c.padded_pitch) + "] (offset " + std::to_string(c.padded_pitch) +
         " row + 4 chunk), " +
         (c.padded_bytes == 16
              ? std::string("each lane reading its float4 chunk")
              : "each lane reading only the first " + std::to_string(c.padded_bytes) +
                    " bytes of its chunk, one " + vector_of(c.padded_bytes));
}
inline std::string pairs_text(const Exercise3Case& c) {
  const std::string element = c.pairs_stride == 1
                                  ? "pairs[t / 2]"
                                  : "pairs[" + std::to_string(c.pairs_stride) + " * (t / 2)]";
  return "lane t storing the float2 " + element + " of __shared__ float2 pairs[" +
         std::to_string(16 * c.pairs_stride) + "] (lanes t and t ^ 1 store the same 8 bytes)";
}

}  // namespace ch08::spec
