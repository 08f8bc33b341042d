// Chapter 08 host checks: the 16-byte chunk layout (bounds, alignment, bijection, conflicts) and
// the predictions, against the bank model.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

using Layout = std::function<int(int row, int chunk)>;
using ch08::kBlockSide;
using ch08::kChunks;
using ch08::kTile;
using ch08::kTileFloats;

// The lanes of warp `w`: threads (x, y) with y = 2w + lane / 16, x = lane % 16.
int thread_x(int lane) {
  return lane % kBlockSide;
}
int thread_y(int w, int lane) {
  return 2 * w + lane / kBlockSide;
}

// Instruction i of warp w storing its chunks: thread (x, y) stores chunk x of tile row y + 16 i.
smem::WarpRequest tile_store(const Layout& offset, int w, int i) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int t) {
    return 4LL * offset(thread_y(w, t) + kBlockSide * i, thread_x(t));
  });
}

// Instruction k of warp w loading its blocks: thread (x, y) loads chunk y of tile row 4 x + k.
smem::WarpRequest tile_load(const Layout& offset, int w, int k) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int t) {
    return 4LL * offset(4 * thread_x(t) + k, thread_y(w, t));
  });
}

int padded_by_a_chunk(int row, int chunk) {
  return row * (kTile + 4) + 4 * chunk;
}

std::string call(int row, int chunk) {
  return "tile_chunk_offset(" + std::to_string(row) + ", " + std::to_string(chunk) + ")";
}

// Bounds, alignment and bijection of every chunk, then every warp request of the kernel.
std::optional<grader::Feedback> check_chunk_layout(const Layout& offset) {
  std::vector<int> owner(kTileFloats / 4, -1);  // slot of 4 floats -> row * 16 + chunk
  for (int row = 0; row < kTile; ++row) {
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      const int f = offset(row, chunk);
      if (f < 0 || f + 4 > kTileFloats) {
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

void check_prediction(const char* name, int predicted,
                      const std::function<smem::WarpRequest()>& request, const char* hint) {
  const auto problem =
      grader::judge_prediction(name, predicted, ch08::kNotImplemented, request, hint);
  GRADER_EXPECT(!problem, *problem);
}

}  // namespace

TEST_CASE("ch08 exercise 1: tile_chunk_offset is aligned, a bijection and conflict-free",
          "[host]") {
  const auto problem = check_chunk_layout(ch08::tile_chunk_offset);
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch08 exercise 3: predictions for the 16- and 8-byte requests", "[host]") {
  // The first request of warp 0; with a layout that passes exercise 1, every request is alike.
  check_prediction(
      "predicted_tile_store_wavefronts", ch08::predicted_tile_store_wavefronts(),
      [] { return tile_store(ch08::tile_chunk_offset, 0, 0); },
      "a 16-byte request is served in groups of 8 lanes; even a conflict-free "
      "group is one wavefront.");
  check_prediction(
      "predicted_tile_load_wavefronts", ch08::predicted_tile_load_wavefronts(),
      [] { return tile_load(ch08::tile_chunk_offset, 0, 0); },
      "count each group of 8 lanes separately and add.");
  check_prediction(
      "predicted_padded_load_wavefronts", ch08::predicted_padded_load_wavefronts(),
      [] { return tile_load(padded_by_a_chunk, 0, 0); },
      "in float tile[64][68] rows 4 apart are 4 x 68 floats apart: which bank quads does "
      "chunk 0 of each of the 8 rows of a group use?");
  check_prediction(
      "predicted_float2_pairs_store_wavefronts", ch08::predicted_float2_pairs_store_wavefronts(),
      [] {
        return smem::WarpRequest::from_lanes(8, smem::Op::kStore,
                                             [](int t) { return 8LL * (t / 2); });
      },
      "lane pairs merge for loads only: an 8-byte store is always two groups of 16 lanes; "
      "count each group's distinct words.");
}
