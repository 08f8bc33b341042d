// Chapter 11 host checks: tma_smem_offset against the grader's statement of the TMA's layouts,
// and the predictions against the bank model.
#include <algorithm>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/model/bank_model.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/exercise_source.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {
const ch11::TmaSwizzle kModes[] = {ch11::TmaSwizzle::kNone, ch11::TmaSwizzle::k32B,
                                   ch11::TmaSwizzle::k64B, ch11::TmaSwizzle::k128B};

std::string call(ch11::TmaSwizzle mode, int row_bytes, int row, int byte) {
  return "tma_smem_offset(" + std::string(ch11::spec::name(mode)) + ", " +
         std::to_string(row_bytes) + ", " + std::to_string(row) + ", " + std::to_string(byte) + ")";
}
}  // namespace

TEST_CASE("ch11 exercise 1: tma_smem_offset is where the TMA puts each byte", "[host]") {
  for (ch11::TmaSwizzle mode : kModes) {
    for (int row_bytes = 16; row_bytes <= ch11::spec::span(mode); row_bytes += 16) {
      // Enough rows for two 1024-byte atoms at least.
      const int rows = std::max(16, 2048 / row_bytes);
      // The TMA writes whole 1024-byte atoms: the swizzle may move the last chunks of a box whose
      // size is not a multiple of 1024 past its end, within the atom.
      const int atoms = (rows * ch11::spec::smem_pitch(mode, row_bytes) + 1023) / 1024 * 1024;
      // How many bytes your function puts on each place, to say when it is not a bijection.
      std::vector<int> seen(static_cast<size_t>(atoms), 0);
      for (int row = 0; row < rows; ++row) {
        for (int byte = 0; byte < row_bytes; ++byte) {
          const int got = ch11::tma_smem_offset(mode, row_bytes, row, byte);
          if (got >= 0 && got < atoms) ++seen[static_cast<size_t>(got)];
        }
      }
      for (int row = 0; row < rows; ++row) {
        for (int byte = 0; byte < row_bytes; ++byte) {
          const int got = ch11::tma_smem_offset(mode, row_bytes, row, byte);
          const int want = ch11::spec::offset(mode, row_bytes, row, byte);
          if (got == want) continue;
          grader::Feedback f(call(mode, row_bytes, row, byte) + " is " + std::to_string(got) +
                             "; the TMA puts that byte at " + std::to_string(want) + ".");
          if (got < 0 || got >= atoms || seen[static_cast<size_t>(got)] > 1) {
            f.line(
                "Your function is not a bijection: two bytes land on one place, or one "
                "outside the box.");
          }
          const int bits = static_cast<int>(mode);
          const int padded = row * ch11::spec::smem_pitch(mode, row_bytes) + byte;
          const int dense = row * row_bytes + byte;
          if (bits > 0 && got == (padded ^ ((row & ((1 << bits) - 1)) << 4))) {
            f.line(
                "That is the XOR with the box row. The TMA XORs with the index of the "
                "128-byte line instead, and a line holds " +
                std::to_string(128 / ch11::spec::span(mode)) + " box rows in this mode.");
          } else if (bits > 0 && row_bytes < ch11::spec::span(mode) &&
                     got == (dense ^ ((dense >> 3) & (((1 << bits) - 1) << 4)))) {
            f.line(
                "That is where a dense box would put it. In a swizzled mode every box row "
                "takes the mode's whole span in shared memory, however narrow it is.");
          }
          GRADER_FAIL(f.hint(mode == ch11::TmaSwizzle::kNone
                                 ? "without a swizzle the box is dense, row after row."
                                 : "in a swizzled mode each box row starts a new span; the "
                                   "XOR then takes bits of the 128-byte line index (offset bits "
                                   "7 and up), which is not the box row when the span is "
                                   "shorter than 128 bytes."));
        }
      }
    }
  }
  SUCCEED();
}

TEST_CASE("ch11 exercise 2a: column reads of a TMA box, in each mode", "[host]") {
  for (ch11::TmaSwizzle mode : kModes) {
    for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
      const std::string what = std::string("predicted_column_wavefronts(") +
                               ch11::spec::name(mode) + ", " +
                               (read == ch11::ColumnRead::kWords ? "kWords" : "kChunks") + ")";
      const auto problem = grader::judge_prediction(
          what, ch11::predicted_column_wavefronts(mode, read), ch11::kNotImplemented,
          [&] { return ch11::spec::column_read(mode, read); },
          "rows of " + std::to_string(ch11::spec::column_box_row_bytes(mode)) +
              " bytes: which 128-byte line, and which chunk place in it, does each row's "
              "chunk 0 take? Then count per bank (words) or per group of 8 lanes (chunks).");
      GRADER_EXPECT(!problem, *problem);
    }
  }
}

TEST_CASE("ch11 exercise 2b and 2c: the least padded pitch a TMA box allows, and its column",
          "[host]") {
  const int pitch = ch11::least_padded_pitch();
  const int least = ch11::spec::least_padded_pitch();
  GRADER_EXPECT(pitch == least,
                pitch == ch11::kNotImplemented
                    ? grader::Feedback("least_padded_pitch() is not filled in yet.")
                    : grader::Feedback("least_padded_pitch() is " + std::to_string(pitch) +
                                       (pitch < least ? ": a TMA box row of that many floats is "
                                                        "not a multiple of 16 bytes."
                                                      : ": a smaller pitch is allowed."))
                          .hint("a box row must be a multiple of 16 bytes."));
  const auto problem = grader::judge_prediction(
      "predicted_padded_column_wavefronts", ch11::predicted_padded_column_wavefronts(),
      ch11::kNotImplemented, [&] { return ch11::spec::padded_column(least); },
      "row t starts at word " + std::to_string(least) + " t: in which bank?");
  GRADER_EXPECT(!problem, *problem);
}

TEST_CASE("ch11 exercise 3: the kernel fences the output tile before the TMA store reads it",
          "[host]") {
  // The TMA reads shared memory through the async proxy; ordinary writes reach it only after
  // fence.proxy.async. Leaving the fence out went unnoticed in every run on the H200, so the
  // grader reads the code: in tma_transpose_kernel, a ptx::fence_proxy_async() before the
  // ptx::tma_store_2d.
  const std::string code = grader::without_comments(grader::exercise_source());
  const std::size_t kernel = code.find("tma_transpose_kernel(");
  const std::size_t body = kernel == std::string::npos ? kernel : code.find('{', kernel);
  REQUIRE(body != std::string::npos);
  const std::size_t store = code.find("tma_store_2d(", body);
  const std::size_t fence = code.find("fence_proxy_async()", body);
  GRADER_EXPECT(store != std::string::npos && fence != std::string::npos && fence < store,
                grader::Feedback(store == std::string::npos
                                     ? "tma_transpose_kernel issues no TMA store."
                                     : "tma_transpose_kernel TMA-stores the output tile without a "
                                       "ptx::fence_proxy_async() after writing it.")
                    .line("The TMA reads shared memory through another path (the async proxy) "
                          "than the threads' stores; without the fence it may read the tile "
                          "before their writes reach it. A run may well pass without it, so "
                          "the grader reads your code.")
                    .hint("every thread that wrote the tile fences, then __syncthreads(), then "
                          "one thread issues the store."));
}
