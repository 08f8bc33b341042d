// Chapter 08: the kernel's tile accesses as the contract states them (the questions of exercises
// 1 and 3), and the host check of a chunk layout: bounds, alignment, bijection, and every tile
// store and load of the kernel at its ideal wavefronts.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch08::spec {

using Layout = std::function<int(int row, int chunk)>;

/// Lane `lane` of warp `w` is thread (x, y) with x = lane % 16 and y = 2 w + lane / 16.
inline int thread_x(int lane) {
  return lane % kBlockSide;
}
inline int thread_y(int w, int lane) {
  return 2 * w + lane / kBlockSide;
}

/// Instruction i of warp w storing its chunks: thread (x, y) stores chunk x of tile row y + 16 i.
inline smem::WarpRequest tile_store(const Layout& offset, int w, int i) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int t) {
    return 4LL * offset(thread_y(w, t) + kBlockSide * i, thread_x(t));
  });
}

/// Instruction k of warp w loading its blocks: thread (x, y) loads chunk y of tile row 4 x + k.
inline smem::WarpRequest tile_load(const Layout& offset, int w, int k) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int t) {
    return 4LL * offset(4 * thread_x(t) + k, thread_y(w, t));
  });
}

/// The layout exercise 3 asks about besides the student's: rows padded by one chunk,
/// `float tile[64][68]`.
inline int padded_by_a_chunk(int row, int chunk) {
  return row * (kTile + 4) + 4 * chunk;
}

/// The first problem of `offset` as the kernel's tile layout: bounds, alignment and bijection of
/// every chunk, then every warp request of the kernel against its ideal. Nothing when it is
/// right.
inline std::optional<grader::Feedback> check_chunk_layout(const Layout& offset) {
  const auto call = [](int row, int chunk) {
    return "tile_chunk_offset(" + std::to_string(row) + ", " + std::to_string(chunk) + ")";
  };
  std::vector<int> owner(kTileFloats / 4, -1);  // slot of 4 floats -> row * 16 + chunk
  for (int row = 0; row < kTile; ++row) {
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      const int f = offset(row, chunk);
      if (f < 0 || f > kTileFloats - 4) {  // not f + 4 > kTileFloats: INT_MAX - 3 would wrap
        return grader::Feedback(call(row, chunk) + " is " + std::to_string(f) +
                                ": the chunk's floats " + std::to_string(f) + " .. " +
                                std::to_string(f + 3) + " are not all inside the tile's " +
                                std::to_string(kTileFloats) + " floats.")
            .hint(
                "the tile's size is fixed by the interface: 64 rows of 64 floats, plus at "
                "most 4 floats (16 bytes) of padding per row.");
      }
      if (f % 4 != 0) {
        return grader::Feedback(call(row, chunk) + " is " + std::to_string(f) +
                                ", not a multiple of 4: a float4 there starts at byte " +
                                std::to_string(4 * f) +
                                ", which is not 16-byte aligned. The GPU stops such a kernel "
                                "with 'misaligned address'.")
            .hint(
                "a row pitch of 65 floats (tile[64][65]) works for 4-byte accesses only; "
                "for float4 rows pad by 4 floats (16 bytes), or swizzle whole chunks.");
      }
      int& slot = owner[static_cast<size_t>(f / 4)];
      if (slot >= 0) {
        return grader::Feedback(call(row, chunk) + " is " + std::to_string(f) + ", where " +
                                call(slot / kChunks, slot % kChunks) +
                                " already is: two chunks would overwrite each other.")
            .hint(
                "the layout must be a bijection: within a row, no two chunks may land on "
                "the same position.");
      }
      slot = row * kChunks + chunk;
    }
  }
  for (int w = 0; w < kBlockSide / 2; ++w) {
    for (int i = 0; i < kTile / kBlockSide; ++i) {
      const smem::WarpRequest store = tile_store(offset, w, i);
      const smem::Analysis a = smem::analyze(store);
      if (a.wavefronts != a.ideal) {
        const int row = 2 * w + kBlockSide * i;
        return grader::Feedback(
                   "Warp " + std::to_string(w) + " storing chunks 0-15 of tile rows " +
                   std::to_string(row) + " and " + std::to_string(row + 1) +
                   " (lanes 0-15 and 16-31) takes " + grader::wavefronts(a.wavefronts) +
                   "; 32 lanes x 16 bytes need only " + grader::wavefronts(a.ideal) + ".")
            .picture(grader::draw(store))
            .hint(
                "each group of 8 lanes (0-7, 8-15, ...) must write 8 chunks that fall in "
                "8 different 16-byte bank quads.");
      }
    }
    for (int k = 0; k < 4; ++k) {
      const smem::WarpRequest load = tile_load(offset, w, k);
      const smem::Analysis a = smem::analyze(load);
      if (a.wavefronts != a.ideal) {
        return grader::Feedback(
                   "Warp " + std::to_string(w) + " loading chunks " + std::to_string(2 * w) +
                   " and " + std::to_string(2 * w + 1) + " of tile rows " + std::to_string(k) +
                   ", " + std::to_string(4 + k) + ", ..., " + std::to_string(60 + k) + " (load " +
                   std::to_string(k) + " of its 4 x 4 blocks) takes " +
                   grader::wavefronts(a.wavefronts) + "; 32 lanes x 16 bytes need only " +
                   grader::wavefronts(a.ideal) + ".")
            .picture(grader::draw(load))
            .hint(
                "the 8 lanes of a group read rows 4 apart; their chunks must land in 8 "
                "different bank quads: permute the chunks of each row by a function of the row "
                "that differs for rows 4 apart (section 3 of the lesson works one for "
                "consecutive rows).");
      }
    }
  }
  return std::nullopt;
}

/// Whether the exercise's own tile_chunk_offset passes exercise 1: the predictions of its tile
/// accesses are checked once it does.
inline bool layout_is_right() {
  return !check_chunk_layout(ch08::tile_chunk_offset);
}

}  // namespace ch08::spec
