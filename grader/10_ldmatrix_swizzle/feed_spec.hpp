// Chapter 10, exercise 3's feed: the contract of fill_copy and fragment_offset as properties the
// host checks (and the GPU checks' guards) hold them to. No layout here: the tile is placed by
// the student's own functions, and the properties say only what any right layout must do.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace ch10::feed {

using grader::LayoutFault;

constexpr int kCopies = 8;  ///< Copies per thread per operand tile and stage.
constexpr int kChunks = kTcRowBytes / 16;

inline std::string copy_call(int t, int i) {
  return "fill_copy(" + std::to_string(t) + ", " + std::to_string(i) + ")";
}

inline std::string fragment_call(int lane, int row0, int kk) {
  return "fragment_offset(" + std::to_string(lane) + ", " + std::to_string(row0) + ", " +
         std::to_string(kk) + ")";
}

/// Where fill_copy puts each (row, chunk): place[row][chunk], -1 where nothing goes.
using Placement = std::vector<std::vector<int>>;

/// What makes fill_copy unsafe to run or wrong whatever its speed: a value not filled in or out
/// of range, a chunk copied twice or not at all, two copies landing on one place, a warp's
/// copy not reading whole rows in order, or a layout that does not repeat every 16 rows. The
/// first fault found, or nothing (then `place` holds the layout).
inline std::optional<LayoutFault> fill_copy_fault(Placement* place = nullptr) {
  Placement at(kTcBlock, std::vector<int>(kChunks, -1));
  std::vector<int> used(kTcSlotBytes / 16, -1);
  for (int i = 0; i < kCopies; ++i) {
    for (int t = 0; t < kTcThreads; ++t) {
      const ChunkCopy c = fill_copy(t, i);
      const std::string call = copy_call(t, i);
      const std::string value = "{row " + std::to_string(c.row) + ", chunk " +
                                std::to_string(c.chunk) + ", to " + std::to_string(c.to) + "}";
      if (c.row == kNotImplemented || c.chunk == kNotImplemented || c.to == kNotImplemented) {
        return LayoutFault{call + " is not filled in yet: it still returns kNotImplemented",
                           "exercise 3a: which row and chunk each copy takes, and where it lands."};
      }
      if (c.row < 0 || c.row >= kTcBlock || c.chunk < 0 || c.chunk >= kChunks) {
        return LayoutFault{call + " is " + value + ": the tile has rows 0 .. 127 and chunks 0 .. 7",
                           "thread t's copy i takes one 16-byte chunk of the 128 x 64 tile."};
      }
      if (c.to < 0 || c.to % 16 != 0 || c.to > kTcSlotBytes - 16) {
        return LayoutFault{call + " is " + value + ": `to` must be a multiple of 16 from 0 to " +
                               std::to_string(kTcSlotBytes - 16) + " (the operand's slot)",
                           "cp.async writes 16 aligned bytes, inside the slot."};
      }
      if (at[static_cast<size_t>(c.row)][static_cast<size_t>(c.chunk)] >= 0) {
        return LayoutFault{call + " copies row " + std::to_string(c.row) + ", chunk " +
                               std::to_string(c.chunk) + " again: another copy already took it",
                           "the 1024 copies must take each of the tile's 1024 chunks once."};
      }
      if (used[static_cast<size_t>(c.to / 16)] >= 0) {
        return LayoutFault{call + " lands at byte " + std::to_string(c.to) +
                               ", where another chunk already went: not a bijection",
                           "every chunk needs a place of its own in the slot."};
      }
      const int first = t / 8 * 8;
      const ChunkCopy lead = fill_copy(first, i);
      if (c.row != lead.row || c.chunk != t - first) {
        return LayoutFault{call + " is " + value + ", but " + copy_call(first, i) + " copies row " +
                               std::to_string(lead.row) + ": lanes " + std::to_string(first % 32) +
                               " .. " + std::to_string(first % 32 + 7) +
                               " of a warp must copy chunks 0 .. 7 of one row, in order",
                           "8 consecutive threads read one 128-byte line of A or B (coalesced)."};
      }
      at[static_cast<size_t>(c.row)][static_cast<size_t>(c.chunk)] = c.to;
      used[static_cast<size_t>(c.to / 16)] = c.row * kChunks + c.chunk;
    }
  }
  const int stride = at[16][0] - at[0][0];
  for (int r = 16; r < kTcBlock; ++r) {
    for (int c = 0; c < kChunks; ++c) {
      const int expect = at[static_cast<size_t>(r % 16)][static_cast<size_t>(c)] + r / 16 * stride;
      if (at[static_cast<size_t>(r)][static_cast<size_t>(c)] != expect) {
        return LayoutFault{
            "row " + std::to_string(r) + ", chunk " + std::to_string(c) + " lands at byte " +
                std::to_string(at[static_cast<size_t>(r)][static_cast<size_t>(c)]) + ", not " +
                std::to_string(expect) + ": the layout does not repeat every 16 rows",
            "row r + 16 j must land j times the bytes of 16 rows after row r (a swizzle must "
            "repeat within 16 rows)."};
      }
    }
  }
  if (place) *place = at;
  return std::nullopt;
}

/// Warp w's cp.async of copy i: lanes 8 q .. 8 q + 7 read one 128-byte row of A or B.
inline smem::WarpRequest fill_request(int w, int i) {
  return smem::WarpRequest::async_copy(128, [&](int l) { return fill_copy(32 * w + l, i).to; });
}

/// The ldmatrix.x4 of the piece at rows row0 .. row0 + 15 and halves 16 kk .. 16 kk + 15.
inline smem::WarpRequest fragment_request(int row0, int kk) {
  return smem::WarpRequest::ldmatrix(4, [&](int l) { return fragment_offset(l, row0, kk); });
}

/// What makes fragment_offset read the wrong bytes or unsafe to run, given fill_copy's
/// placement: not filled in, not where fill_copy put the chunk that lane must give. The first
/// fault, or nothing.
inline std::optional<LayoutFault> fragment_fault(const Placement& place) {
  for (int row0 = 0; row0 < kTcBlock; row0 += 16) {
    for (int kk = 0; kk < kTcKStep / 16; ++kk) {
      for (int lane = 0; lane < 32; ++lane) {
        const int got = fragment_offset(lane, row0, kk);
        const std::string call = fragment_call(lane, row0, kk);
        if (got == kNotImplemented) {
          return LayoutFault{call + " is not filled in yet: it still returns kNotImplemented",
                             "exercise 3b: the row address each lane gives to ldmatrix.x4."};
        }
        const int matrix = lane / 8, row = row0 + 8 * (matrix % 2) + lane % 8;
        const int chunk = 2 * kk + matrix / 2;
        const int want = place[static_cast<size_t>(row)][static_cast<size_t>(chunk)];
        if (got == want) continue;
        std::string there = "no chunk of the tile";
        for (int r = 0; r < kTcBlock; ++r) {
          for (int c = 0; c < kChunks; ++c) {
            if (place[static_cast<size_t>(r)][static_cast<size_t>(c)] == got) {
              there = "row " + std::to_string(r) + ", chunk " + std::to_string(c);
            }
          }
        }
        return LayoutFault{
            call + " is " + std::to_string(got) + ", where fill_copy put " + there + "; lane " +
                std::to_string(lane) + " gives row " + std::to_string(lane % 8) + " of matrix " +
                std::to_string(matrix) + " of the piece, which is not there",
            "the contract of fragment_offset says which rows and which halves of K each of the "
            "four matrices holds (figure ch10-ldmatrix-fragments.svg); read each chunk where "
            "fill_copy put it.",
            "That lane's row is row " + std::to_string(row) + ", chunk " + std::to_string(chunk) +
                ", which fill_copy put at byte " + std::to_string(want) + "."};
      }
    }
  }
  return std::nullopt;
}

/// True when both functions are safe to run in the kernel (their values in range and
/// consistent): what the GPU checks wait for.
inline std::optional<LayoutFault> feed_fault() {
  Placement place;
  if (auto f = fill_copy_fault(&place)) return f;
  return fragment_fault(place);
}

}  // namespace ch10::feed
