// Chapter 11's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same function and kernel on cases the hand-out's checks do not try: a
// tma_smem_offset tuned to the local rows and widths, or a transpose tuned to the local shapes,
// loses these points.
#include <string>
#include <utility>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "grader/11_tma_layouts/device_probes.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/subject_link.hpp"
#include "grader/transpose/transpose_bench.hpp"

namespace {

// Where the TMA puts a byte, bit by bit: each box row at row * span (the row itself for kNone),
// then chunk bits 4 .. 4 + B - 1 XORed with bits 7 .. 7 + B - 1 (B = 1, 2, 3 for 32B, 64B, 128B).
long long tma_offset(ch11::TmaSwizzle mode, int row_bytes, int row, int byte) {
  const int b = static_cast<int>(mode);
  const long long a = 1LL * row * (b == 0 ? row_bytes : 16 << b) + byte;
  long long out = a;
  for (int i = 0; i < b; ++i) out ^= ((a >> (7 + i)) & 1) << (4 + i);
  return out;
}

}  // namespace

WORKBOOK_CHECK(hidden_tma_offset) {
  for (ch11::TmaSwizzle mode : ch11::spec::kModes) {
    const int widest = mode == ch11::TmaSwizzle::kNone ? 1024 : ch11::spec::widest_row(mode);
    for (int row_bytes = 16; row_bytes <= widest; row_bytes += 16) {
      int wrong_row = -1, wrong_byte = 0, got = 0;
      grader::subject::for_each_call(
          ch11::tma_smem_offset,
          [&](auto ask) {
            for (int row = 0; row < 256; ++row) {
              for (int byte = 0; byte < row_bytes; ++byte) ask(mode, row_bytes, row, byte);
            }
          },
          [&](int value, ch11::TmaSwizzle, int, int row, int byte) {
            if (wrong_row < 0 && value != tma_offset(mode, row_bytes, row, byte)) {
              wrong_row = row, wrong_byte = byte, got = value;
            }
          });
      if (wrong_row < 0) continue;
      GRADER_FAIL(grader::Feedback("tma_smem_offset(" + std::string(ch11::spec::name(mode)) + ", " +
                                   std::to_string(row_bytes) + ", " + std::to_string(wrong_row) +
                                   ", " + std::to_string(wrong_byte) + ") is " +
                                   std::to_string(got) + ", not where the TMA puts that byte.")
                      .hint("tma_smem_offset must hold for every row below 256 and every row "
                            "width the mode allows, kNone's up to 1024 bytes."));
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_transpose) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(9, "the TMA and its mbarriers");
  // One row or one column of boxes, thin boxes at either edge, and more boxes than blocks.
  const std::vector<std::pair<int, int>> shapes = {{4, 4096},   {4096, 4},    {36, 2052},
                                                   {2044, 100}, {1028, 1028}, {260, 8192}};
  ch11::probes::forget_waits_that_gave_up();
  const auto problem =
      transpose::check_correct_on(ch11::probes::launch_yours, "tma_transpose_kernel",
                                  grader::hidden_seed(1101), shapes, {ch11::kBoxRows, 4});
  if (problem) GRADER_FAIL(*problem);
  // A wait that gave up may still leave small shapes right: it is wrong all the same.
  if (const auto gave_up = ch11::probes::wait_that_gave_up()) {
    GRADER_FAIL(grader::Feedback("tma_transpose_kernel waits on an mbarrier for a phase that "
                                 "never completes.")
                    .line(*gave_up));
  }
  SUCCEED();
}
