// The transpose ladder's host check of a 32 x 32 tile layout (chapters 06 and 07): every element
// has its own word inside the tile, and a warp storing a row or loading a column of the tile
// takes one wavefront.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace transpose {

/// The 64 warp requests of a 32 x 32 float tile laid out by `index(row, col)` (a word of the
/// tile): a warp storing each row (lanes over col), and a warp loading each column (lanes over
/// row), in turn.
inline std::vector<smem::WarpRequest> tile_requests(const std::function<int(int, int)>& index) {
  std::vector<smem::WarpRequest> requests;
  for (int k = 0; k < 32; ++k) {
    requests.push_back(smem::WarpRequest::from_lanes(4, smem::Op::kStore,
                                                     [&](int t) { return 4LL * index(k, t); }));
    requests.push_back(smem::WarpRequest::from_lanes(4, smem::Op::kLoad,
                                                     [&](int t) { return 4LL * index(t, k); }));
  }
  return requests;
}

/// Checks `index(row, col)` for the 32 x 32 tile against `words`; the feedback for the first
/// problem, naming the function `name`, or nothing.
inline std::optional<grader::Feedback> check_tile_layout(const std::string& name,
                                                         const std::function<int(int, int)>& index,
                                                         int words) {
  // What a warp loading column 0 costs with this layout, bounds aside: the slip of padding by an
  // even number of words shows here, even when its tile also overflows.
  const auto column_conflict = [&]() -> std::string {
    for (int t = 0; t < 32; ++t) {
      if (index(t, 0) < 0) return "";
    }
    const auto load =
        smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * index(t, 0); });
    const int ways = smem::analyze(load).ways;
    if (ways <= 1) return "";
    const int stride = index(1, 0) - index(0, 0);
    std::string why;
    bool uniform = true;
    for (int t = 1; t < 32; ++t) uniform = uniform && index(t, 0) - index(t - 1, 0) == stride;
    if (uniform) {
      int g = stride < 0 ? -stride : stride, b = 32;
      while (b != 0) {
        const int r = g % b;
        g = b;
        b = r;
      }
      why = ": rows are " + std::to_string(stride) + " words apart, and gcd(" +
            std::to_string(stride) + ", 32) = " + std::to_string(g);
    }
    return "Besides, a warp loading column 0 of this layout is " + std::to_string(ways) +
           "-way conflicted" + why + ".";
  };
  std::vector<int> owner(static_cast<size_t>(words), -1);
  for (int row = 0; row < 32; ++row) {
    for (int col = 0; col < 32; ++col) {
      const int w = index(row, col);
      const std::string call = name + "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
      if (w < 0 || w >= words) {
        grader::Feedback f(call + " is " + std::to_string(w) + ", outside the tile's " +
                           std::to_string(words) + " words.");
        const std::string conflict = column_conflict();
        if (!conflict.empty()) f.line(conflict);
        return f.hint(
            "the tile's size is fixed by the interface: the least padding that makes "
            "columns conflict-free fits it.");
      }
      if (owner[static_cast<size_t>(w)] >= 0) {
        const int other = owner[static_cast<size_t>(w)];
        const bool same_row = other / 32 == row;
        return grader::Feedback(call + " is word " + std::to_string(w) + ", which element (" +
                                std::to_string(other / 32) + ", " + std::to_string(other % 32) +
                                ") already uses: two elements would overwrite each other.")
            .hint(same_row ? "the layout must be a bijection: within a row, no two columns may "
                             "map to the same word."
                           : "the layout must be a bijection: here two different rows overlap. "
                             "Each row needs words of its own that no other row reaches, "
                             "wrapping around included.");
      }
      owner[static_cast<size_t>(w)] = row * 32 + col;
    }
  }
  for (int k = 0; k < 32; ++k) {
    const auto store = smem::WarpRequest::from_lanes(4, smem::Op::kStore,
                                                     [&](int t) { return 4LL * index(k, t); });
    if (smem::analyze(store).wavefronts != 1) {
      return grader::Feedback("A warp storing row " + std::to_string(k) + " of the tile takes " +
                              std::to_string(smem::analyze(store).wavefronts) + " wavefronts.")
          .picture(grader::draw(store))
          .hint("the 32 columns of a row must fall in 32 different banks.");
    }
    const auto load =
        smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * index(t, k); });
    if (smem::analyze(load).wavefronts != 1) {
      grader::Feedback f("A warp loading column " + std::to_string(k) + " of the tile takes " +
                         std::to_string(smem::analyze(load).wavefronts) + " wavefronts.");
      f.picture(grader::draw(load));
      // Column 0 conflicts too when any does with a uniform row stride: say why.
      const std::string why = column_conflict();
      if (!why.empty()) {
        std::string line = why.substr(std::string("Besides, ").size());
        line[0] = 'A';
        f.line(line);
      }
      return f.hint("the 32 rows of a column must fall in 32 different banks.");
    }
  }
  return std::nullopt;
}

}  // namespace transpose
