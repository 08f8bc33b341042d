// Chapter 09: the grader's own statement of every shared access the chapter grades, written
// from the contracts in tiled_gemm.cuh, and the layout checks of exercise 2.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/subject_link.hpp"

namespace ch09::spec {

/// The name of an access's enumerator and its code, for messages.
inline std::string name(Access a) {
  switch (a) {
    case Access::kStoreAs: return "kStoreAs (As[ty][tx] = ...)";
    case Access::kStoreBs: return "kStoreBs (Bs[ty][tx] = ...)";
    case Access::kReadAsRow: return "kReadAsRow (As[ty][k])";
    case Access::kReadBsRow: return "kReadBsRow (Bs[k][tx])";
    case Access::kReadAsColumn: return "kReadAsColumn (As[tx][k])";
    case Access::kReadAsTransposed: return "kReadAsTransposed (As[k][ty])";
    case Access::kReadBsColumn: return "kReadBsColumn (Bs[tx][k])";
  }
  return "?";
}

/// A short name of an access, for measurement quantities (`counted.tile32.As_tx_k`).
inline const char* short_name(Access a) {
  switch (a) {
    case Access::kStoreAs: return "store_As";
    case Access::kStoreBs: return "store_Bs";
    case Access::kReadAsRow: return "As_ty_k";
    case Access::kReadBsRow: return "Bs_k_tx";
    case Access::kReadAsColumn: return "As_tx_k";
    case Access::kReadAsTransposed: return "As_k_ty";
    case Access::kReadBsColumn: return "Bs_tx_k";
  }
  return "?";
}

/// Warp `warp`'s request for `a` in the classic kernel with TILE = `tile`, inner-loop column
/// k = `column` % TILE (so that the default fits every tile). As starts at byte 0, Bs at the
/// first multiple of 128 bytes after it. A block of fewer than 32 threads (TILE = 4) is one warp
/// whose other lanes are inactive.
inline smem::WarpRequest classic_request(Access a, int tile, int warp = 0, int column = 5) {
  const int k = column % tile;
  const long long bs = (4LL * tile * tile + 127) / 128 * 128;
  const bool store = a == Access::kStoreAs || a == Access::kStoreBs;
  return smem::WarpRequest::from_lanes(
      4, store ? smem::Op::kStore : smem::Op::kLoad, [=](int lane) -> long long {
        const int thread = 32 * warp + lane, tx = thread % tile, ty = thread / tile;
        if (thread >= tile * tile) return smem::kInactive;
        switch (a) {
          case Access::kStoreAs: return 4LL * (ty * tile + tx);
          case Access::kStoreBs: return bs + 4LL * (ty * tile + tx);
          case Access::kReadAsRow: return 4LL * (ty * tile + k);
          case Access::kReadBsRow: return bs + 4LL * (k * tile + tx);
          case Access::kReadAsColumn: return 4LL * (tx * tile + k);
          case Access::kReadAsTransposed: return 4LL * (k * tile + ty);
          case Access::kReadBsColumn: return bs + 4LL * (tx * tile + k);
        }
        return 0;
      });
}

using Layout = std::function<int(int k, int m)>;
using Owner = std::function<int(int thread, int half)>;

/// Warp `warp`'s transposed store of element i of its A float4 (the contract's load mapping).
inline smem::WarpRequest transposed_store(const Layout& as_offset, int warp, int i) {
  return smem::WarpRequest::from_lanes(4, smem::Op::kStore, [&](int lane) {
    const int t = 32 * warp + lane;
    return 4LL * as_offset(4 * (t % 2) + i, t / 2);
  });
}

/// Warp `warp`'s inner-loop float4 read of As at column k, rows thread_row(t, half).
inline smem::WarpRequest a_read(const Layout& as_offset, const Owner& row, int warp, int k,
                                int half) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int lane) {
    return 4LL * as_offset(k, row(32 * warp + lane, half));
  });
}

/// Warp `warp`'s inner-loop float4 read of Bs[k][thread_col(t, half)] (Bs after the As buffer).
inline smem::WarpRequest b_read(const Owner& col, int warp, int k, int half) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int lane) {
    return 4LL * (kAsFloats + kBlockN * k + col(32 * warp + lane, half));
  });
}

/// Warp `warp`'s float4 store of B's tile row t / 32 (fixed by the contract).
inline smem::WarpRequest b_store(int warp) {
  return smem::WarpRequest::from_lanes(16, smem::Op::kStore, [&](int lane) {
    const int t = 32 * warp + lane;
    return 4LL * (kAsFloats + kBlockN * (t / 32) + 4 * (t % 32));
  });
}

/// The first problem with as_offset as a layout: range, bijection, chunks of 4 m aligned.
inline std::optional<grader::Feedback> check_as_layout(const Layout& as_offset) {
  std::vector<int> owner(kAsFloats, -1);
  for (int k = 0; k < kBlockK; ++k) {
    for (int m = 0; m < kBlockM; ++m) {
      const int f = as_offset(k, m);
      const std::string call = "as_offset(" + std::to_string(k) + ", " + std::to_string(m) + ")";
      if (f < 0 || f >= kAsFloats) {
        return grader::Feedback(call + " is " + std::to_string(f) + ", outside the tile's " +
                                std::to_string(kAsFloats) + " floats.")
            .hint(
                "the tile is 8 rows of 128 floats, with room for at most 4 floats of padding "
                "per row.");
      }
      if (m % 4 == 0 && f % 4 != 0) {
        return grader::Feedback(call + " is " + std::to_string(f) +
                                ", not a multiple of 4: the float4 of m = " + std::to_string(m) +
                                " .. " + std::to_string(m + 3) + " would start at byte " +
                                std::to_string(4 * f) +
                                ", which is not 16-byte aligned ('misaligned address').")
            .hint(
                "a row pitch must keep every chunk of 4 floats 16-byte aligned: pad by a "
                "multiple of 4 floats, or swizzle whole chunks.");
      }
      if (m % 4 != 0 && f != as_offset(k, m - 1) + 1) {
        return grader::Feedback(call + " is " + std::to_string(f) + ", but as_offset(" +
                                std::to_string(k) + ", " + std::to_string(m - 1) + ") is " +
                                std::to_string(as_offset(k, m - 1)) +
                                ": the 4 elements a float4 reads must be 4 consecutive floats.")
            .hint("move whole chunks of 4 m, never single elements.");
      }
      if (owner[static_cast<size_t>(f)] >= 0) {
        const int other = owner[static_cast<size_t>(f)];
        return grader::Feedback(call + " is " + std::to_string(f) + ", where element (m " +
                                std::to_string(other % kBlockM) + ", k " +
                                std::to_string(other / kBlockM) +
                                ") already is: two elements would overwrite each other.")
            .hint(
                "the layout must be a bijection: a swizzle must permute whole chunks within "
                "their row, never fold two onto one.");
      }
      owner[static_cast<size_t>(f)] = k * kBlockM + m;
    }
  }
  return std::nullopt;
}

/// The first problem with thread_row / thread_col: range, alignment, each output owned once.
inline std::optional<grader::Feedback> check_ownership(const Owner& row, const Owner& col) {
  std::vector<int> owner(kBlockM * kBlockN, -1);
  for (int t = 0; t < kThreads; ++t) {
    for (int h = 0; h < 2; ++h) {
      for (const auto& [f, what] : {std::pair<const Owner&, const char*>{row, "thread_row"},
                                    std::pair<const Owner&, const char*>{col, "thread_col"}}) {
        const int v = f(t, h);
        if (v < 0 || v > 124 || v % 4 != 0) {
          return grader::Feedback(std::string(what) + "(" + std::to_string(t) + ", " +
                                  std::to_string(h) + ") is " + std::to_string(v) +
                                  "; it must be a multiple of 4 from 0 to 124.")
              .hint("each half names the first of 4 consecutive rows (columns) of the tile.");
        }
      }
    }
    for (int h = 0; h < 2; ++h) {
      for (int g = 0; g < 2; ++g) {
        for (int i = 0; i < 4; ++i) {
          for (int j = 0; j < 4; ++j) {
            const int r = row(t, h) + i, c = col(t, g) + j;
            int& o = owner[static_cast<size_t>(r * kBlockN + c)];
            if (o >= 0) {
              return grader::Feedback("Threads " + std::to_string(o) + " and " + std::to_string(t) +
                                      " both own output (" + std::to_string(r) + ", " +
                                      std::to_string(c) + ") of the tile.")
                  .hint(
                      "the 256 threads' 8 x 8 outputs must cover the 128 x 128 tile exactly "
                      "once.");
            }
            o = t;
          }
        }
      }
    }
  }
  return std::nullopt;
}

/// The transposed store into `float As[8][pitch]`: lanes 2 j and 2 j + 1 store m = j into k rows 0
/// and 4 (the other elements' stores are the same, a row on).
inline smem::WarpRequest pitch_store(long long pitch) {
  return smem::WarpRequest::from_lanes(
      4, smem::Op::kStore, [=](int lane) { return 4LL * (4LL * (lane % 2) * pitch + lane / 2); });
}

/// The blocks (rows of A) from `from` to `to` that as_pitch's contract allows: multiples of 4.
inline std::vector<int> block_rows(int from, int to) {
  std::vector<int> rows;
  for (int b = from; b <= to; b += 4) rows.push_back(b);
  return rows;
}

/// The feedback for the first of `blocks` where as_pitch is not the smallest aligned pitch whose
/// transposed store takes one wavefront (by the bank model), or nothing. One batch of calls.
inline std::optional<grader::Feedback> pitch_rule_problem(const std::vector<int>& blocks) {
  std::vector<int> pitches;
  grader::subject::for_each_call(
      ch09::as_pitch,
      [&](auto ask) {
        for (const int b : blocks) ask(b);
      },
      [&](int p, const auto&...) { pitches.push_back(p); });
  const auto conflict_free = [](long long p) {
    const smem::Analysis a = smem::analyze(pitch_store(p));
    return a.wavefronts == a.ideal;
  };
  for (std::size_t n = 0; n < blocks.size(); ++n) {
    const int b = blocks[n], p = pitches[n];
    const std::string said = "as_pitch(" + std::to_string(b) + ") is " + std::to_string(p);
    if (p < b || p % 4 != 0) {
      return grader::Feedback(said + ": a row of As must hold the block's " + std::to_string(b) +
                              " values of one k, and every chunk of 4 m must start 16-byte "
                              "aligned, so the pitch is a multiple of 4 from " +
                              std::to_string(b) + " up.");
    }
    if (!conflict_free(p)) {
      const smem::Analysis a = smem::analyze(pitch_store(p));
      return grader::Feedback(said + ": at that pitch the transposed store takes " +
                              grader::wavefronts(a.wavefronts) + ", not 1.")
          .picture(grader::draw(pitch_store(p)))
          .hint(
              "lanes 2 j and 2 j + 1 write one m into k rows 4 apart: ask where 4 rows of the "
              "pitch move that m among the 32 banks.");
    }
    for (long long q = b; q < p; q += 4) {
      if (conflict_free(q)) {
        return grader::Feedback(said +
                                ": its store takes one wavefront, but so does a smaller "
                                "aligned pitch from " +
                                std::to_string(b) +
                                " up, and every float of padding costs 8 "
                                "floats of shared memory a tile.")
            .hint(
                "pad no more than the store needs: which pitches from the block's rows up "
                "keep it conflict-free?");
      }
    }
  }
  return std::nullopt;
}

/// The first shared access of exercise 2 that takes more than its ideal: the transposed store,
/// then the inner-loop reads. (The B store is fixed by the contract and always ideal.)
inline std::optional<grader::Feedback> check_accesses(const Layout& as_offset, const Owner& row,
                                                      const Owner& col) {
  for (int w = 0; w < kThreads / 32; ++w) {
    for (int i = 0; i < 4; ++i) {
      const smem::WarpRequest r = transposed_store(as_offset, w, i);
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts != a.ideal) {
        return grader::Feedback("Warp " + std::to_string(w) + "'s transposed store of element " +
                                std::to_string(i) + " of its A float4 (As k rows " +
                                std::to_string(i) + " and " + std::to_string(4 + i) + ", m " +
                                std::to_string(16 * w) + " .. " + std::to_string(16 * w + 15) +
                                ") takes " + grader::wavefronts(a.wavefronts) + ", not " +
                                std::to_string(a.ideal) + ".")
            .picture(grader::draw(r))
            .hint(
                "lanes t and t + 1 store the same m into k rows 4 apart: those two rows must "
                "put one m in different banks.");
      }
    }
    for (int k = 0; k < kBlockK; ++k) {
      for (int h = 0; h < 2; ++h) {
        for (const bool is_a : {true, false}) {
          const smem::WarpRequest r = is_a ? a_read(as_offset, row, w, k, h) : b_read(col, w, k, h);
          const smem::Analysis a = smem::analyze(r);
          if (a.wavefronts != a.ideal) {
            const std::string what = is_a ? "As[k][thread_row(t, " + std::to_string(h) + ")]"
                                          : "Bs[k][thread_col(t, " + std::to_string(h) + ")]";
            return grader::Feedback("Warp " + std::to_string(w) + "'s float4 read of " + what +
                                    " at k = " + std::to_string(k) + " takes " +
                                    grader::wavefronts(a.wavefronts) + "; its ideal is " +
                                    std::to_string(a.ideal) + ".")
                .picture(grader::draw(r))
                .hint(is_a ? "the chunks a warp reads from one k row of As must fall in "
                             "different bank quads (or be shared by lane pairs)."
                           : "each group of 8 lanes must read 8 chunks in 8 different bank "
                             "quads: 128 contiguous bytes of a Bs row, for example.");
          }
        }
      }
    }
  }
  return std::nullopt;
}

/// What a block of the kernel should count in shared memory over `steps` K-steps, by the model:
/// wavefronts and warp-level instructions of loads and of stores.
struct Promise {
  double load_wavefronts = 0, load_instructions = 0;
  double store_wavefronts = 0, store_instructions = 0;
  double load_ideal = 0, store_ideal = 0;  ///< What the same requests take without conflicts.
};
inline Promise promise(const Layout& as_offset, const Owner& row, const Owner& col, int steps) {
  Promise p;
  for (int w = 0; w < kThreads / 32; ++w) {
    const auto add = [](double& wavefronts, double& ideal, double& instructions,
                        const smem::WarpRequest& r) {
      const smem::Analysis a = smem::analyze(r);
      wavefronts += a.wavefronts;
      ideal += a.ideal;
      instructions += 1;
    };
    for (int i = 0; i < 4; ++i) {
      add(p.store_wavefronts, p.store_ideal, p.store_instructions,
          transposed_store(as_offset, w, i));
    }
    add(p.store_wavefronts, p.store_ideal, p.store_instructions, b_store(w));
    for (int k = 0; k < kBlockK; ++k) {
      for (int h = 0; h < 2; ++h) {
        add(p.load_wavefronts, p.load_ideal, p.load_instructions, a_read(as_offset, row, w, k, h));
        add(p.load_wavefronts, p.load_ideal, p.load_instructions, b_read(col, w, k, h));
      }
    }
  }
  for (double* x : {&p.load_wavefronts, &p.load_instructions, &p.store_wavefronts,
                    &p.store_instructions, &p.load_ideal, &p.store_ideal}) {
    *x *= steps;
  }
  return p;
}

}  // namespace ch09::spec
