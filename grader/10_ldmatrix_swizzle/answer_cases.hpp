// Chapter 10: the cases of exercise 1 that the host checks hold to digests of the reference's
// values (grader/harness/answer_digest.hpp), the properties its feedback names, and exercise
// 2a's properties. The hand-out holds no swizzle: exercise 2's swizzled tiles are placed through
// the exercise's own swizzle and chosen_swizzle, once they are right.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"
#include "grader/10_ldmatrix_swizzle/answer_digests.hpp"
#include "grader/10_ldmatrix_swizzle/swizzle_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/answer_digest.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"

namespace ch10::spec {

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
