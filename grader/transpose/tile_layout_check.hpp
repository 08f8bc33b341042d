// The transpose ladder's host checks of tile layouts (chapters 06 and 07): every element has its
// own word inside the tile, and a warp storing rows or loading a column of the tile takes one
// wavefront, for the kernels' 32 x 32 tile and for a layout rule's tiles of any width; and of a
// padding rule, a tile's pitch for its column reads.
#pragma once

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"

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

/// The warp requests that read whole rows of a tile of 32 rows of `width` floats (a power of two)
/// laid out by `index(row, col)`: each aligned run of 32 columns of a row where rows are 32
/// floats or wider, else 32 / `width` consecutive rows at once; with what each one reads.
inline std::vector<std::pair<smem::WarpRequest, std::string>> row_requests(
    const std::function<int(int, int)>& index, int width) {
  std::vector<std::pair<smem::WarpRequest, std::string>> requests;
  const int per_row = width < 32 ? width : 32;  // the elements of one row a warp stores
  const int rows_at_once = 32 / per_row;
  for (int row = 0; row < 32; row += rows_at_once) {
    for (int first = 0; first < width; first += 32) {
      const auto store = smem::WarpRequest::from_lanes(4, smem::Op::kStore, [&](int t) {
        return 4LL * index(row + t / per_row, first + t % per_row);
      });
      requests.push_back({store, rows_at_once > 1 ? "rows " + std::to_string(row) + " .. " +
                                                        std::to_string(row + rows_at_once - 1)
                                 : width > 32 ? "columns " + std::to_string(first) + " .. " +
                                                    std::to_string(first + 31) + " of row " +
                                                    std::to_string(row)
                                              : "row " + std::to_string(row)});
    }
  }
  return requests;
}

/// Checks `index(row, col)` for a tile of 32 rows of `width` floats (a power of two; the
/// transposes' 32 x 32 tile by default) against `words`; the feedback for the first problem,
/// naming the call `name(row, col` + `more_args` + `)`, or nothing.
inline std::optional<grader::Feedback> check_tile_layout(const std::string& name,
                                                         const std::function<int(int, int)>& index,
                                                         int words, int width = 32,
                                                         const std::string& more_args = "") {
  // What a warp loading column 0 costs with this layout, bounds aside: the slip of padding by an
  // even number of words shows here, even when its tile also overflows. "a warp loading column 0
  // of this layout is N-way conflicted[: why].", or nothing where it is not.
  const auto column_conflict = [&]() -> std::string {
    for (int t = 0; t < 32; ++t) {
      if (index(t, 0) < 0) return "";
    }
    const auto load =
        smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * index(t, 0); });
    const int ways = smem::analyze(load).ways;
    if (ways <= 1) return "";
    const int stride = index(1, 0) - index(0, 0);
    bool uniform = true;
    for (int t = 1; t < 32; ++t) uniform = uniform && index(t, 0) - index(t - 1, 0) == stride;
    const std::string why = ": rows are " + std::to_string(stride) + " words apart, and gcd(" +
                            std::to_string(stride) +
                            ", 32) = " + std::to_string(std::gcd(stride, 32));
    return "a warp loading column 0 of this layout is " + std::to_string(ways) + "-way conflicted" +
           (uniform ? why : "") + ".";
  };
  const std::string tile =
      more_args.empty() ? "the tile" : name + "'s tile " + std::to_string(width) + " floats wide";
  std::vector<int> owner(static_cast<size_t>(words), -1);
  for (int row = 0; row < 32; ++row) {
    for (int col = 0; col < width; ++col) {
      const int w = index(row, col);
      const std::string call =
          name + "(" + std::to_string(row) + ", " + std::to_string(col) + more_args + ")";
      if (w < 0 || w >= words) {
        grader::Feedback f(call + " is " + std::to_string(w) + ", outside the tile's " +
                           std::to_string(words) + " words.");
        const std::string conflict = column_conflict();
        if (!conflict.empty()) f.line("Besides, " + conflict);
        return f.hint(
            "the tile's size is fixed by the interface: a layout that makes columns "
            "conflict-free with the least padding, or none, fits it.");
      }
      if (owner[static_cast<size_t>(w)] >= 0) {
        const int other = owner[static_cast<size_t>(w)];
        const bool same_row = other / width == row;
        return grader::Feedback(call + " is word " + std::to_string(w) + ", which element (" +
                                std::to_string(other / width) + ", " +
                                std::to_string(other % width) +
                                ") already uses: two elements would overwrite each other.")
            .hint(same_row ? "the layout must be a bijection: within a row, no two columns may "
                             "map to the same word."
                           : "the layout must be a bijection: here two different rows overlap. "
                             "Each row needs words of its own that no other row reaches, "
                             "wrapping around included.");
      }
      owner[static_cast<size_t>(w)] = row * width + col;
    }
  }
  for (const auto& [store, what] : row_requests(index, width)) {
    if (smem::analyze(store).wavefronts != 1) {
      return grader::Feedback("A warp storing " + what + " of " + tile + " takes " +
                              std::to_string(smem::analyze(store).wavefronts) + " wavefronts.")
          .picture(grader::draw(store))
          .hint("the 32 elements a warp stores must fall in 32 different banks.");
    }
  }
  for (int k = 0; k < width; ++k) {
    const auto load =
        smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [&](int t) { return 4LL * index(t, k); });
    if (smem::analyze(load).wavefronts != 1) {
      grader::Feedback f("A warp loading column " + std::to_string(k) + " of " + tile + " takes " +
                         std::to_string(smem::analyze(load).wavefronts) + " wavefronts.");
      f.picture(grader::draw(load));
      // Column 0 conflicts too when any does with a uniform row stride: say why (column 0's own
      // failure only where there is a why).
      const std::string why = column_conflict();
      if (!why.empty() && (k != 0 || why.find("gcd") != std::string::npos))
        f.line("A" + why.substr(1));
      return f.hint("the 32 rows of a column must fall in 32 different banks.");
    }
  }
  return std::nullopt;
}

/// The feedback for the first of `widths` at which `word(row, col, width)`, a layout rule for
/// unpadded tiles of 32 rows of `width` floats, is no conflict-free bijection (check_tile_layout),
/// or nothing. Each tile's words are asked of the student's code in one batch.
inline std::optional<grader::Feedback> layout_rule_problem(const std::string& name,
                                                           int (*word)(int, int, int),
                                                           const std::vector<int>& widths) {
  for (const int width : widths) {
    const std::vector<int> words = grader::subject::grid_of_calls(word, 32, width, width);
    const auto index = [&](int row, int col) {
      return words[static_cast<std::size_t>(row * width + col)];
    };
    if (auto problem =
            check_tile_layout(name, index, 32 * width, width, ", " + std::to_string(width))) {
      return problem;
    }
  }
  return std::nullopt;
}

/// The widest tiles (in columns) whose padding rule a local run asks; official grading asks wider.
inline constexpr int kPaddingColumnsAskedLocally = 128;

/// A warp loading column `column` of 32 rows `pitch` elements of `bytes` apart (lane r reads
/// row r).
inline smem::WarpRequest column_load(int pitch, int bytes, int column) {
  return smem::WarpRequest::from_lanes(bytes, smem::Op::kLoad, [=](int r) {
    return static_cast<long long>(bytes) * (static_cast<long long>(r) * pitch + column);
  });
}

/// The costliest column load of a tile of `columns` columns at `pitch`: columns a word apart
/// give the same picture a bank along, so the columns of the first word are enough (two for
/// halves, whose odd columns start mid-word: chapter 04).
inline smem::WarpRequest costliest_column_load(int columns, int pitch, int bytes) {
  smem::WarpRequest worst = column_load(pitch, bytes, 0);
  for (int c = 1; c < std::min(columns, 4 / bytes); ++c) {
    const smem::WarpRequest load = column_load(pitch, bytes, c);
    if (smem::analyze(load).wavefronts > smem::analyze(worst).wavefronts) worst = load;
  }
  return worst;
}

/// Whether a tile of `columns` halves needs more than the pitch that spreads its column 0: the
/// tile of halves a padding rule's fresh draws always include, where reading column 0 alone
/// misleads (its odd columns start mid-word).
inline bool column_0_misleads(int columns) {
  int pitch = columns;
  while (smem::analyze(column_load(pitch, 2, 0)).wavefronts > 1) ++pitch;
  return smem::analyze(costliest_column_load(columns, pitch, 2)).wavefronts > 1;
}

/// The feedback for the first (columns, element bytes) of `cases` at which
/// `pitch(element_bytes, columns)` (a padding rule: the smallest pitch from `columns` up at
/// which every column read takes the fewest wavefronts, one per 128 bytes) is wrong, or nothing.
/// `kernels_tile_first`: cases[0] is the kernel's own tile.
inline std::optional<grader::Feedback> padding_rule_problem(
    const std::function<int(int, int)>& pitch, const std::vector<std::pair<int, int>>& cases,
    bool kernels_tile_first) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto [columns, bytes] = cases[i];
    const int fewest = bytes <= 4 ? 1 : bytes / 4;
    const int yours = pitch(bytes, columns);
    int right = columns;  // the bank model's: the first pitch from `columns` up at the fewest
    while (smem::analyze(costliest_column_load(columns, right, bytes)).wavefronts > fewest) {
      ++right;
    }
    if (yours == right) continue;
    const std::string call =
        "padded_pitch(" + std::to_string(bytes) + ", " + std::to_string(columns) + ")";
    const std::string type = bytes == 2   ? "halves"
                             : bytes == 4 ? "floats"
                             : bytes == 8 ? "doubles"
                                          : "float4s";
    const std::string before = i == 0 ? ""
                                      : " (right on the " + std::to_string(i) +
                                            (i == 1 ? " tile" : " tiles") + " before it)";
    grader::Feedback f(
        call + " returned " + std::to_string(yours) + ", on " +
        (i == 0 && kernels_tile_first ? "the kernel's tile" : "a fresh tile" + before) + ".");
    if (yours < columns) {
      f.line("A row of " + std::to_string(columns) + " " + type + " needs a pitch of at least " +
             std::to_string(columns) + ".");
    } else {
      const smem::WarpRequest load = costliest_column_load(columns, yours, bytes);
      const int cost = smem::analyze(load).wavefronts;
      f.line(cost > fewest
                 ? "At that pitch a warp reading column " +
                       std::to_string(load.address[0] / bytes) + " of 32 rows of " + type +
                       " takes " + grader::wavefronts(cost) + "; " + std::to_string(fewest) +
                       " is the fewest it can."
                 : "That pitch reads every column in the fewest wavefronts, but a smaller "
                   "one, at least " +
                       std::to_string(columns) + ", does too.");
      if (cost > fewest) f.picture(grader::draw(load));
    }
    return f
        .hint(
            "a column read costs what chapter 05's rule says for its pitch (of halves, try a "
            "column that starts mid-word too: chapter 04); find the first pitch from `columns` "
            "up at which every column's cost is the fewest.")
        .reveal("The bank model's pitch: " + std::to_string(right) + ".");
  }
  return std::nullopt;
}

}  // namespace transpose
