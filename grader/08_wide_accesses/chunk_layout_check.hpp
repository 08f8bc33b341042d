// Chapter 08: the kernel's tile accesses as the contract states them (the questions of exercises
// 1 and 3), and the host check of a chunk layout, the kernel's or the swizzle rule's at any
// width: bounds, alignment, bijection, and every tile store and load at its ideal wavefronts.
// Last, the requests exercise 3's four predictions are about, drawn from the student's variant
// (grader/harness/variant.hpp). Variant 0 asks what the workbook always asked: warp 0's first
// tile store and first block load, that load from float tile[64][68], and lane t storing
// pairs[t / 2]. A class variant asks about another warp and instruction of the kernel, another
// padding and width of the padded load, and another stride of the float2 store.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"
#include "grader/harness/variant.hpp"

namespace ch08::spec {

using Layout = std::function<int(int row, int chunk)>;

/// Lane `lane` of warp `w` is thread (x, y) with x = lane % 16 and y = 2 w + lane / 16.
inline int thread_x(int lane) {
  return lane % kBlockSide;
}
inline int thread_y(int w, int lane) {
  return 2 * w + lane / kBlockSide;
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

/// A warp storing chunks 32 s .. 32 s + 31 of a tile of `row_chunks` chunks a row, in row-major
/// order. The kernel's tile (16 chunks a row): warp w's store i is s = w + 8 i.
inline smem::WarpRequest row_major_store(const Layout& offset, int row_chunks, int s) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int t) {
    const int n = 32 * s + t;
    return 4LL * offset(n / row_chunks, n % row_chunks);
  });
}

/// Instruction i of warp w storing its chunks: thread (x, y) stores chunk x of tile row y + 16 i.
inline smem::WarpRequest tile_store(const Layout& offset, int w, int i) {
  return row_major_store(offset, kChunks, w + 8 * i);
}

/// The first problem of `offset` as a layout of 64 rows of `row_chunks` chunks in `floats`
/// floats, `call(row, chunk)` naming the student's call, `tile` the tile ("In TILE, a warp ..."),
/// `room` saying what the tile holds:
/// bounds, alignment and bijection of every chunk, then every warp storing 32 chunks in row-major
/// order and every load of the kernel's step 2 (as its warps would read a tile that wide) against
/// its ideal. Nothing when it is right.
inline std::optional<grader::Feedback> chunk_layout_problem(
    const Layout& offset, int row_chunks, int floats,
    const std::function<std::string(int, int)>& call, const std::string& tile,
    const std::string& room) {
  std::vector<int> owner(static_cast<size_t>(floats / 4), -1);  // slot of 4 floats -> chunk
  for (int row = 0; row < kTile; ++row) {
    for (int chunk = 0; chunk < row_chunks; ++chunk) {
      const int f = offset(row, chunk);
      if (f < 0 || f > floats - 4) {  // not f + 4 > floats: INT_MAX - 3 would wrap
        return grader::Feedback(call(row, chunk) + " is " + std::to_string(f) +
                                ": the chunk's floats " + std::to_string(f) + " .. " +
                                std::to_string(f + 3) + " are not all inside the tile's " +
                                std::to_string(floats) + " floats.")
            .hint(room);
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
                                call(slot / row_chunks, slot % row_chunks) +
                                " already is: two chunks would overwrite each other.")
            .hint(
                "the layout must be a bijection: within a row, no two chunks may land on "
                "the same position.");
      }
      slot = row * row_chunks + chunk;
    }
  }
  for (int s = 0; s < 2 * row_chunks; ++s) {
    const smem::WarpRequest store = row_major_store(offset, row_chunks, s);
    const smem::Analysis a = smem::analyze(store);
    if (a.wavefronts != a.ideal) {
      const int first = 32 * s / row_chunks, last = (32 * s + 31) / row_chunks;
      const std::string what = first == last ? "chunks " + std::to_string(32 * s % row_chunks) +
                                                   "-" + std::to_string(32 * s % row_chunks + 31) +
                                                   " of tile row " + std::to_string(first)
                                             : "tile rows " + std::to_string(first) + "-" +
                                                   std::to_string(last) + " (" +
                                                   std::to_string(row_chunks) + " lanes a row)";
      return grader::Feedback("In " + tile + ", a warp storing " + what + " takes " +
                              grader::wavefronts(a.wavefronts) +
                              "; 32 lanes x 16 bytes need only " + grader::wavefronts(a.ideal) +
                              ".")
          .picture(grader::draw(store))
          .hint(
              "each group of 8 lanes (0-7, 8-15, ...) must write 8 chunks that fall in 8 "
              "different 16-byte bank quads.");
    }
  }
  for (int w = 0; w < row_chunks / 2; ++w) {
    for (int k = 0; k < 4; ++k) {
      const smem::WarpRequest load = tile_load(offset, w, k);
      const smem::Analysis a = smem::analyze(load);
      if (a.wavefronts != a.ideal) {
        return grader::Feedback(
                   "In " + tile + ", warp " + std::to_string(w) + " loading chunks " +
                   std::to_string(2 * w) + " and " + std::to_string(2 * w + 1) + " of tile rows " +
                   std::to_string(k) + ", " + std::to_string(4 + k) + ", ..., " +
                   std::to_string(60 + k) + " (load " + std::to_string(k) +
                   " of its 4 x 4 blocks) takes " + grader::wavefronts(a.wavefronts) +
                   "; 32 lanes x 16 bytes need only " + grader::wavefronts(a.ideal) + ".")
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

/// The first problem of `offset` as the kernel's tile layout (chunk_layout_problem on 16 chunks a
/// row, with room for 16 bytes of padding a row).
inline std::optional<grader::Feedback> check_chunk_layout(const Layout& offset) {
  return chunk_layout_problem(
      offset, kChunks, kTileFloats,
      [](int row, int chunk) {
        return "tile_chunk_offset(" + std::to_string(row) + ", " + std::to_string(chunk) + ")";
      },
      "tile_chunk_offset's tile",
      "the tile's size is fixed by the interface: 64 rows of 64 floats, plus at most 4 floats "
      "(16 bytes) of padding per row.");
}

/// The feedback for the first of `widths` (chunks a row) at which swizzled_chunk is no
/// conflict-free layout of its unpadded tile, or nothing. Each tile's offsets are asked of the
/// student's code in one batch.
inline std::optional<grader::Feedback> swizzle_rule_problem(const std::vector<int>& widths) {
  for (const int row_chunks : widths) {
    const std::vector<int> offsets =
        grader::subject::grid_of_calls(ch08::swizzled_chunk, kTile, row_chunks, row_chunks);
    const auto offset = [&](int row, int chunk) {
      return offsets[static_cast<size_t>(row * row_chunks + chunk)];
    };
    const auto call = [&](int row, int chunk) {
      return "swizzled_chunk(" + std::to_string(row) + ", " + std::to_string(chunk) + ", " +
             std::to_string(row_chunks) + ")";
    };
    if (auto problem = chunk_layout_problem(
            offset, row_chunks, kTile * 4 * row_chunks, call,
            "swizzled_chunk's tile of " + std::to_string(row_chunks) + " chunks a row",
            "swizzled_chunk's tile is unpadded: 64 rows of 4 x " + std::to_string(row_chunks) +
                " floats, no more.")) {
      return problem;
    }
  }
  return std::nullopt;
}

/// Whether the exercise's own tile_chunk_offset passes exercise 1: the predictions of its tile
/// accesses are checked once it does.
inline bool layout_is_right() {
  return !check_chunk_layout(ch08::tile_chunk_offset);
}

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
