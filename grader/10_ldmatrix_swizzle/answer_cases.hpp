// Chapter 10: the grader's statement of the questions: the tiles' layouts as the interface
// defines them, and the accesses exercise 2 asks about; then the cases of exercise 1 that the
// host checks hold to digests of the reference's values (grader/harness/answer_digest.hpp), the
// properties its feedback names, and exercise 2a's properties. The hand-out holds no swizzle: a
// swizzled tile is placed through a swizzle function given by the caller (the student's own),
// and exercise 2's swizzled tiles through the exercise's own swizzle and chosen_swizzle, once
// they are right.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"
#include "grader/10_ldmatrix_swizzle/answer_digests.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/answer_digest.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"
#include "grader/harness/variant.hpp"

namespace ch10::spec {

/// A swizzle function of (B, M, S, offset), as exercise 1's swizzle is.
using SwizzleFn = std::function<int(int, int, int, int)>;

/// Rows of the tile the checks use (a 128-row operand tile of one K-step).
constexpr int kRows = 128;

/// The row widths exercise 2 asks about at self-study (variant 0).
constexpr int kRowWidths[] = {64, 128};

/// The layouts exercise 2b asks about.
constexpr Layout kLayouts[] = {Layout::kPlain, Layout::kPadded16, Layout::kSwizzled};

inline const char* name(Layout l) {
  switch (l) {
    case Layout::kPlain: return "kPlain";
    case Layout::kPadded16: return "kPadded16";
    case Layout::kSwizzled: return "kSwizzled";
  }
  return "?";
}

/// The byte address where the plain layout's byte `plain` of a tile with rows of `row_bytes`
/// lives in `layout` (the interface's definition), with swizzle parameters `p` and the swizzle
/// function `swizzle_fn` for Layout::kSwizzled.
inline long long place(int row_bytes, Layout layout, const SwizzleParams& p, long long plain,
                       const SwizzleFn& swizzle_fn) {
  switch (layout) {
    case Layout::kPlain: return plain;
    case Layout::kPadded16: return plain / row_bytes * (row_bytes + 16) + plain % row_bytes;
    case Layout::kSwizzled: return swizzle_fn(p.b, p.m, p.s, static_cast<int>(plain));
  }
  return plain;
}

/// One ldmatrix.x4 of the A-fragment pattern: lane l gives row r0 + l % 16, chunk c + l / 16.
inline smem::WarpRequest ldmatrix_x4(int row_bytes, Layout layout, const SwizzleParams& p, int r0,
                                     int c, const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::ldmatrix(4, [&](int l) {
    return place(row_bytes, layout, p, 1LL * (r0 + l % 16) * row_bytes + 16 * (c + l / 16),
                 swizzle_fn);
  });
}

/// Warp w's 16-byte store of 32 consecutive chunks of the plain layout (how cp.async fills it).
inline smem::WarpRequest chunk_store(int row_bytes, Layout layout, const SwizzleParams& p, int w,
                                     const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int l) {
    return place(row_bytes, layout, p, 512LL * w + 16 * l, swizzle_fn);
  });
}

/// Warp w's cp.async of 32 consecutive chunks of the plain layout (how exercise 3's kernel fills
/// a tile): lanes read global rows of `row_bytes` (at most a 128-byte line per row is modelled).
inline smem::WarpRequest cp_async_fill(int row_bytes, Layout layout, const SwizzleParams& p, int w,
                                       const SwizzleFn& swizzle_fn) {
  return smem::WarpRequest::async_copy(row_bytes < 128 ? row_bytes : 128, [&](int l) {
    return place(row_bytes, layout, p, 512LL * w + 16 * l, swizzle_fn);
  });
}

/// One ldmatrix.x4 exercise 2b asks about: the tile's rows and layout, and where it reads (rows
/// r0 .. r0 + 15, chunks c and c + 1).
struct LdmatrixCase {
  int row_bytes;
  Layout layout;
  int r0;
  int c;
};

/// The row widths a class variant draws: one a swizzle can serve (a power of two, 32 to 128; the
/// lesson works 256), and three that are not a power of two (plain and padded only), 48 to 496.
/// Exercise 2a asks chosen_swizzle about all of the first kind, whatever the variant, so that no
/// wrong width goes ungraded; official grading's hidden check asks 512 and 1024.
inline const std::vector<int>& swizzle_widths_drawn() {
  static const std::vector<int> w = {32, 64, 128};
  return w;
}
inline const std::vector<int>& other_widths_drawn() {
  static const std::vector<int> w = {48,  80,  96,  112, 144, 160, 176, 192, 208,
                                     224, 240, 272, 288, 304, 320, 336, 352, 368,
                                     384, 400, 416, 432, 448, 464, 480, 496};
  return w;
}

/// A multiple of 16 r0 and an even chunk c for an ldmatrix.x4 on `row_bytes` rows, drawn from
/// `d`: rows r0 .. r0 + 15 of the tile's kRows, read within the 48 KiB of shared memory a block
/// has everywhere, in any layout.
inline std::pair<int, int> ldmatrix_position(int row_bytes, grader::variant::Draw& d) {
  const int rows_that_fit = (48 * 1024 - row_bytes) / (row_bytes + 16);
  const int r0 = 16 * d.between(0, std::min(kRows, rows_that_fit) / 16 - 1);
  return {r0, 2 * d.between(0, (row_bytes / 16 - 2) / 2)};
}

/// Exercise 2b's cases for variant `v`, in the order the checks ask them. Self-study: 64- and
/// 128-byte rows, each plain, padded and swizzled, at rows 0-15, chunk 0. A class variant: its
/// swizzle width (plain, padded and swizzled; not plain at 32 bytes, the lesson's analyser
/// example) and its three other widths (plain and padded), at rows and chunks of their own.
inline std::vector<LdmatrixCase> ldmatrix_cases(const grader::variant::Identity& v) {
  std::vector<LdmatrixCase> out;
  if (v.self_study()) {
    for (int row_bytes : kRowWidths) {
      for (Layout layout : kLayouts) out.push_back({row_bytes, layout, 0, 0});
    }
    return out;
  }
  grader::variant::Draw d(v, "ch10");
  const int first = d.pick(swizzle_widths_drawn());
  std::vector<int> widths = {first};
  for (int w : d.some(other_widths_drawn(), 3)) widths.push_back(w);
  for (int row_bytes : widths) {
    const auto [r0, c] = ldmatrix_position(row_bytes, d);
    for (Layout layout : kLayouts) {
      if (layout == Layout::kPlain && row_bytes == 32) continue;
      if (layout == Layout::kSwizzled && row_bytes != first) continue;
      out.push_back({row_bytes, layout, r0, c});
    }
  }
  return out;
}

/// Fresh cases for exercise 2b's rule (grader::variant::fresh_draw), graded after the
/// variant's cases `asked`: two row widths of those a variant may draw that `asked` has not (so
/// that no table of the variant's numbers answers them), each plain and padded (a swizzled tile
/// is the student's own choice, graded at the variant's widths), at rows and chunks of their own.
inline std::vector<LdmatrixCase> fresh_ldmatrix_cases(const std::vector<LdmatrixCase>& asked) {
  grader::variant::Draw d = grader::variant::fresh_draw("ch10");
  std::vector<int> widths = other_widths_drawn();
  widths.insert(widths.end(), {64, 128});
  widths.erase(std::remove_if(widths.begin(), widths.end(),
                              [&](int w) {
                                return std::any_of(asked.begin(), asked.end(),
                                                   [&](const auto& c) { return c.row_bytes == w; });
                              }),
               widths.end());
  std::vector<LdmatrixCase> out;
  for (int row_bytes : d.some(widths, 2)) {
    const auto [r0, c] = ldmatrix_position(row_bytes, d);
    for (Layout layout : {Layout::kPlain, Layout::kPadded16}) {
      out.push_back({row_bytes, layout, r0, c});
    }
  }
  return out;
}

/// "the ldmatrix.x4 of rows 0 .. 15, chunks 0 and 1 on 64-byte rows, kPlain".
inline std::string case_words(const LdmatrixCase& c) {
  return "the ldmatrix.x4 of rows " + std::to_string(c.r0) + " .. " + std::to_string(c.r0 + 15) +
         ", chunks " + std::to_string(c.c) + " and " + std::to_string(c.c + 1) + " on " +
         std::to_string(c.row_bytes) + "-byte rows, " + name(c.layout);
}

/// One parameter set of exercise 1.
struct SwizzleCase {
  int b, m, s;
};

/// Exercise 1's digested cases: every B <= 3, M <= 4 and B <= S <= 4.
inline std::vector<SwizzleCase> swizzle_cases() {
  std::vector<SwizzleCase> cases;
  for (int b = 0; b <= 3; ++b) {
    for (int m = 0; m <= 4; ++m) {
      for (int s = b; s <= 4; ++s) cases.push_back({b, m, s});
    }
  }
  return cases;
}

/// The offsets a case tries: 0 .. offsets_of(c) - 1, four periods of the swizzle.
inline int offsets_of(const SwizzleCase& c) {
  return 1 << (c.b + c.m + c.s + 2);
}

/// "swizzle(1, 0, 1, offset)".
inline std::string call_of(const SwizzleCase& c, const std::string& offset = "offset") {
  return "swizzle(" + std::to_string(c.b) + ", " + std::to_string(c.m) + ", " +
         std::to_string(c.s) + ", " + offset + ")";
}

/// The digested case: the values `swizzle_fn(b, m, s, o)` of every offset the case tries.
template <typename Swizzle>
grader::DigestCase swizzle_case(const SwizzleCase& c, Swizzle swizzle_fn) {
  grader::DigestCase d{call_of(c), {}};
  grader::subject::for_each_call(
      swizzle_fn,
      [&](auto ask) {
        for (int o = 0; o < offsets_of(c); ++o) ask(c.b, c.m, c.s, o);
      },
      [&](auto value, const auto&...) { d.values.push_back(value); });
  return d;
}

/// How the exercise's swizzle compares with the reference's on case `c`.
inline grader::DigestMatch swizzle_match(const SwizzleCase& c) {
  return grader::match_digest(grader::chapter::kAnswerDigests, swizzle_case(c, ch10::swizzle));
}

/// True when the exercise's swizzle is right on every case of exercise 1.
inline bool swizzle_right() {
  for (const SwizzleCase& c : swizzle_cases()) {
    if (!swizzle_match(c).right) return false;
  }
  return true;
}

/// "chosen_swizzle(128)".
inline std::string chosen_call(int row_bytes) {
  return "chosen_swizzle(" + std::to_string(row_bytes) + ")";
}

namespace detail {

// The first pair of lanes of one group (lanes first .. first + 7) whose 16-byte accesses fall
// in the same bank quad at different chunks, as {i, j}; {-1, -1} when there is none.
inline std::pair<int, int> quad_clash(const smem::WarpRequest& r, int first) {
  for (int i = first; i < first + 8; ++i) {
    for (int j = i + 1; j < first + 8; ++j) {
      if (r.address[i] / 16 != r.address[j] / 16 && r.address[i] / 16 % 8 == r.address[j] / 16 % 8)
        return {i, j};
    }
  }
  return {-1, -1};
}

inline std::string quad_banks(long long address) {
  const long long q = address / 16 % 8;
  return "banks " + std::to_string(4 * q) + "-" + std::to_string(4 * q + 3);
}

// The feedback for a request of the exercise's own swizzled tile that is not conflict-free:
// which two of its rows (or stored chunks) share a bank quad; the count only with a reveal.
inline grader::Feedback conflict(const std::string& which, const std::string& access,
                                 const smem::WarpRequest& r, bool rows,
                                 const std::function<std::string(int)>& lane_name,
                                 const std::string& hint) {
  const smem::Analysis a = smem::analyze(r);
  grader::Feedback f(which + ": " + access + " is not conflict-free.");
  for (int group = 0; group < 32; group += 8) {
    const auto [i, j] = quad_clash(r, group);
    if (i < 0) continue;
    f.line(lane_name(i) + " and " + lane_name(j) + " put their " + (rows ? "chunk" : "16 bytes") +
           " in the same bank quad (" + quad_banks(r.address[i]) +
           "), so their group of 8 lanes takes more than one "
           "wavefront.");
    break;
  }
  f.reveal("The bank model says " + grader::wavefronts(a.wavefronts) + ", ideal " +
           std::to_string(a.ideal) + ":");
  f.reveal(grader::draw(r));
  return f.hint(hint);
}

}  // namespace detail

/// Exercise 2a's properties of chosen_swizzle(row_bytes), on the exercise's own swizzle: valid
/// parameters; a bijection of the 128-row tile that keeps every 16-byte chunk whole and
/// aligned; every warp's cp.async of 32 consecutive chunks and every ldmatrix.x4 of the tile at
/// their ideal wavefronts. The first problem found, or nothing. Meaningful once swizzle_right().
inline std::optional<grader::Feedback> chosen_swizzle_problem(int row_bytes) {
  const SwizzleParams p = ch10::chosen_swizzle(row_bytes);
  const std::string which = chosen_call(row_bytes);
  if (p.b < 0 || p.m < 0 || p.s < 0 || p.b > p.s || p.b + p.m + p.s > 20) {
    return grader::Feedback(which + " is {" + std::to_string(p.b) + ", " + std::to_string(p.m) +
                            ", " + std::to_string(p.s) +
                            "}: not a swizzle yet (0 <= B <= S, M >= 0).")
        .hint("pick B, M and S for each row width; section 2 of the lesson.");
  }
  const int bytes = kRows * row_bytes;
  // Where the exercise's swizzle puts each byte of the tile, asked in one batch.
  std::vector<int> placed(static_cast<size_t>(bytes)), seen(static_cast<size_t>(bytes), -1);
  grader::subject::for_each_call(
      ch10::swizzle,
      [&](auto ask) {
        for (int o = 0; o < bytes; ++o) ask(p.b, p.m, p.s, o);
      },
      [&](int to, int, int, int, int o) { placed[static_cast<size_t>(o)] = to; });
  const SwizzleFn tile_swizzle = [&](int, int, int, int o) {
    return placed[static_cast<size_t>(o)];
  };
  for (int o = 0; o < bytes; ++o) {
    const int to = placed[static_cast<size_t>(o)];
    const bool outside = to < 0 || to >= bytes;
    const bool split = (o % 16 != 0 && to != placed[static_cast<size_t>(o - 1)] + 1) ||
                       (o % 16 == 0 && to % 16 != 0);
    if (outside || split || seen[static_cast<size_t>(to)] >= 0) {
      grader::Feedback f(which + " moves byte " + std::to_string(o) + " of the tile to " +
                         std::to_string(to) + ".");
      if (outside) {
        f.line("That is outside the tile's " + std::to_string(bytes) + " bytes.");
      } else if (split) {
        f.line(
            "That splits a 16-byte chunk: its bytes no longer follow each other, in order, "
            "from a multiple of 16.");
      } else {
        f.line("Byte " + std::to_string(seen[static_cast<size_t>(to)]) +
               " is already there: not a bijection.");
      }
      return f
          .line(
              "The swizzled tile must be a bijection of its bytes that keeps every 16-byte "
              "chunk whole and aligned.")
          .hint(
              "M is the number of low bits a chunk keeps: how many bits number the bytes of "
              "a 16-byte chunk?");
    }
    seen[static_cast<size_t>(to)] = o;
  }
  for (int w = 0; w < bytes / 512; ++w) {
    const smem::WarpRequest r = cp_async_fill(row_bytes, Layout::kSwizzled, p, w, tile_swizzle);
    const smem::Analysis a = smem::analyze(r);
    if (a.wavefronts != a.ideal) {
      grader::Feedback f(which + ": warp " + std::to_string(w) +
                         "'s cp.async of 32 consecutive chunks of the tile takes more than one "
                         "wavefront per global line it reads.");
      f.line(
          "cp.async writes each 128-byte global line into one 128-byte shared line per "
          "wavefront, its chunks permuted by an XOR (section 3).");
      f.reveal("The bank model says " + grader::wavefronts(a.wavefronts) + ", ideal " +
               std::to_string(a.ideal) + ":");
      f.reveal(grader::draw(r));
      return f.hint("keep each line's chunks together in one shared line, permuted by an XOR.");
    }
  }
  for (int r0 = 0; r0 < kRows; r0 += 16) {
    for (int c = 0; c < row_bytes / 16; c += 2) {
      const smem::WarpRequest r = ldmatrix_x4(row_bytes, Layout::kSwizzled, p, r0, c, tile_swizzle);
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts != a.ideal) {
        return detail::conflict(
            which,
            "the ldmatrix.x4 of rows " + std::to_string(r0) + " .. " + std::to_string(r0 + 15) +
                ", chunks " + std::to_string(c) + " and " + std::to_string(c + 1),
            r, true, [r0](int lane) { return "row " + std::to_string(r0 + lane % 16); },
            "the 8 rows of one matrix must put their chunk in 8 different bank quads.");
      }
    }
  }
  return std::nullopt;
}

}  // namespace ch10::spec
