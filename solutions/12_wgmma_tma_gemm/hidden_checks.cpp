// Chapter 12's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. The same functions on cases the hand-out's checks do not try: a wgmma_descriptor
// tuned to the local tiles (addresses below 0x24000, 64, 128 and 256 rows), or predictions
// tuned to the local pitches, lose these points.
#include <string>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"

namespace {

// The descriptor wgmma needs, field by field: the slab that holds bytes 32 k16 .. of each row,
// row row0 in it and the step's place in the row (before the swizzle); kInterleave's LBO the
// next core matrix along K (the next slab), SBO the next 8 rows; the swizzled layouts' LBO 16
// (the contract's), SBO 8 rows of the slab.
unsigned long long descriptor(ch12::OperandLayout layout, unsigned tile, int rows, int k16,
                              int row0) {
  const unsigned w = static_cast<unsigned>(ch12::slab_bytes(layout));
  const unsigned byte = 32u * static_cast<unsigned>(k16);
  ch12::DescriptorFields f;
  f.layout = layout;
  f.start_address = tile + byte / w * static_cast<unsigned>(rows) * w +
                    static_cast<unsigned>(row0) * w + byte % w;
  const bool interleave = layout == ch12::OperandLayout::kInterleave;
  f.leading_byte_offset = interleave ? static_cast<unsigned>(rows) * w : 16u;
  f.stride_byte_offset = 8u * w;
  return ch12::encode_descriptor(f);
}

}  // namespace

WORKBOOK_CHECK(hidden_descriptor) {
  for (ch12::OperandLayout layout : ch12::kOperandLayouts) {
    for (unsigned tile : {0x30000u, 0x37c00u, 0x2400u}) {
      for (int rows : {192, 64, 256}) {
        for (int k16 = 0; k16 < 4; ++k16) {
          for (int row0 = 0; row0 + 64 <= rows; row0 += 8) {
            const unsigned long long got = ch12::wgmma_descriptor(layout, tile, rows, k16, row0);
            if (got == descriptor(layout, tile, rows, k16, row0)) continue;
            GRADER_FAIL(
                grader::Feedback(ch12::spec::call_text({layout, tile, rows, k16, row0}) + " is " +
                                 ch12::spec::hex(got) +
                                 ", not the descriptor wgmma needs for that tile.")
                    .hint("wgmma_descriptor must hold for every K-tile of a multiple of 64 rows "
                          "up to 256 and every tile address of the shared window."));
          }
        }
      }
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(hidden_epilogue) {
  for (int pitch : {340, 356}) {
    const int predicted = ch12::predicted_epilogue_wavefronts(pitch);
    const int model = smem::analyze(ch12::spec::epilogue_store(pitch)).wavefronts;
    GRADER_EXPECT(predicted == model,
                  grader::Feedback("predicted_epilogue_wavefronts(" + std::to_string(pitch) +
                                   ") is " + std::to_string(predicted) + ", not the bank model's.")
                      .hint("the prediction must hold at every pitch, not only your variant's."));
  }
}
