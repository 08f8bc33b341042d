// Chapter 12's answer key (`<grader> lesson`, solution mode): the digests the host checks compare
// exercise 1's descriptors with are the reference solution's (this build links it), and those of
// the typical slips of exercise 1 whose principle the feedback names (`ninja -C <build>
// answer-digests` rewrites them); the reference's rule of exercise 2a is the grader's model on
// every pairing a run may draw.
#include <functional>
#include <string>
#include <vector>

#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch12 answer key: the answer digests are the reference's", "[lesson][digests]") {
  using ch12::DescriptorFields;
  using ch12::OperandLayout;
  std::vector<grader::DigestCase> right;
  std::vector<lesson::Slip> slips;
  for (const ch12::spec::DescriptorCase& c : ch12::spec::descriptor_cases()) {
    right.push_back(ch12::spec::descriptor_case(c, ch12::wgmma_descriptor));
    const OperandLayout layout = c.layout;
    const bool swizzled = layout != OperandLayout::kInterleave;
    const unsigned w = static_cast<unsigned>(ch12::slab_bytes(layout));
    // A slip is the reference's descriptor with some fields changed.
    using Edit = std::function<void(DescriptorFields&, unsigned tile, int rows, int k16, int row0)>;
    const auto slip = [&](const char* name, const Edit& edit) {
      grader::DigestCase values = ch12::spec::descriptor_case(
          c, [&](OperandLayout l, unsigned tile, int rows, int k16, int row0) {
            DescriptorFields f =
                ch12::decode_descriptor(ch12::wgmma_descriptor(l, tile, rows, k16, row0));
            edit(f, tile, rows, k16, row0);
            return ch12::encode_descriptor(f);
          });
      if (values.values != right.back().values) slips.push_back({name, values});
    };
    // SBO of one row's slab bytes instead of 8 rows'.
    slip("sbo_of_one_row",
         [&](DescriptorFields& f, unsigned, int, int, int) { f.stride_byte_offset = w; });
    // The start advanced by 16 bytes per k16 step (8 halves) instead of 32.
    slip("step_of_16_bytes", [&](DescriptorFields& f, unsigned tile, int rows, int k16, int row0) {
      const unsigned byte = 16u * static_cast<unsigned>(k16);
      f.start_address = tile + byte / w * static_cast<unsigned>(rows) * w +
                        static_cast<unsigned>(row0) * w + byte % w;
    });
    if (!swizzled) {
      slip("lbo_sbo_swapped", [&](DescriptorFields& f, unsigned, int, int, int) {
        const unsigned lbo = f.leading_byte_offset;
        f.leading_byte_offset = f.stride_byte_offset;
        f.stride_byte_offset = lbo;
      });
    }
    // The step's bytes taken from row row0 of the first slab: no jump to the slab that holds
    // them (the same as the right start in k128B, whose one slab holds the whole K-tile).
    slip("next_slab_missed", [&](DescriptorFields& f, unsigned tile, int, int k16, int row0) {
      f.start_address = tile + static_cast<unsigned>(row0) * w + 32u * static_cast<unsigned>(k16);
    });
    if (swizzled) {
      slip("lbo_not_16",
           [&](DescriptorFields& f, unsigned, int, int, int) { f.leading_byte_offset = 0; });
    }
    // row0 ignored: every warpgroup's descriptor starts at row 0.
    slip("rows_not_row0", [&](DescriptorFields& f, unsigned tile, int rows, int k16, int) {
      f.start_address =
          ch12::decode_descriptor(ch12::wgmma_descriptor(layout, tile, rows, k16, 0)).start_address;
    });
  }
  lesson::check_answer_digests(right, slips, grader::chapter::kAnswerDigests);
}

TEST_CASE("ch12 answer key: the reference's rule of exercise 2a is the model's on every pairing",
          "[lesson]") {
  for (const ch12::Pairing& p : ch12::spec::pairing_pool()) {
    INFO(ch12::spec::pairing_code(p));
    CHECK(ch12::predicted_reads_right(p) == (ch12::spec::reads_as_written(p) ? 1 : 0));
  }
}
