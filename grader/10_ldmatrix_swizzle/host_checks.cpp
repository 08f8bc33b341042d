// Chapter 10 host checks: the swizzle function, the chosen swizzles, the ldmatrix predictions.
#include <optional>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"
#include "grader/10_ldmatrix_swizzle/swizzle_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {
const char* layout_name(ch10::Layout l) {
  switch (l) {
    case ch10::Layout::kPlain: return "kPlain";
    case ch10::Layout::kPadded16: return "kPadded16";
    case ch10::Layout::kSwizzled: return "kSwizzled";
  }
  return "?";
}
}  // namespace

TEST_CASE("ch10 exercise 1: swizzle(B, M, S, offset) is CuTe's Swizzle<B, M, S>", "[host]") {
  for (int b = 0; b <= 3; ++b) {
    for (int m = 0; m <= 4; ++m) {
      for (int s = b; s <= 4; ++s) {
        for (int offset = 0; offset < (1 << (b + m + s + 2)); ++offset) {
          const int got = ch10::swizzle(b, m, s, offset);
          const int want = ch10::spec::swizzle(b, m, s, offset);
          if (got == want) continue;
          GRADER_FAIL(grader::Feedback("swizzle(" + std::to_string(b) + ", " + std::to_string(m) +
                                       ", " + std::to_string(s) + ", " + std::to_string(offset) +
                                       ") is " + std::to_string(got) + "; Swizzle<" +
                                       std::to_string(b) + ", " + std::to_string(m) + ", " +
                                       std::to_string(s) + "> gives " + std::to_string(want) + ".")
                          .hint("keep the low M bits; XOR bits M + S .. M + S + B - 1 into bits "
                                "M .. M + B - 1; keep the rest."));
        }
      }
    }
  }
  SUCCEED();
}

TEST_CASE(
    "ch10 exercise 2a: the chosen swizzles keep chunks whole and fill and drain the tile "
    "without conflicts",
    "[host]") {
  for (int row_bytes : {64, 128}) {
    const ch10::SwizzleParams p = ch10::chosen_swizzle(row_bytes);
    const std::string which = "chosen_swizzle(" + std::to_string(row_bytes) + ")";
    if (p.b < 0 || p.m < 0 || p.s < 0 || p.b > p.s || p.b + p.m + p.s > 20) {
      GRADER_FAIL(grader::Feedback(which + " is {" + std::to_string(p.b) + ", " +
                                   std::to_string(p.m) + ", " + std::to_string(p.s) +
                                   "}: not a swizzle yet (0 <= B <= S, M >= 0).")
                      .hint("pick B, M and S for each row width; section 2 of the lesson."));
    }
    const int bytes = ch10::spec::kRows * row_bytes;
    std::vector<int> seen(static_cast<size_t>(bytes), 0);
    for (int o = 0; o < bytes; ++o) {
      const int to = ch10::swizzle(p.b, p.m, p.s, o);
      if (to < 0 || to >= bytes || seen[static_cast<size_t>(to)]++ ||
          (o % 16 != 0 && to != ch10::swizzle(p.b, p.m, p.s, o - 1) + 1) ||
          (o % 16 == 0 && to % 16)) {
        GRADER_FAIL(grader::Feedback(which + " moves byte " + std::to_string(o) + " to " +
                                     std::to_string(to) +
                                     ": the swizzled tile must be a bijection of its bytes that "
                                     "keeps every 16-byte chunk whole and aligned.")
                        .hint("M is the number of low bits a chunk keeps: 16 bytes are 4 bits."));
      }
    }
    for (int w = 0; w < bytes / 512; ++w) {
      const auto r =
          ch10::spec::chunk_store(row_bytes, ch10::Layout::kSwizzled, p, w, ch10::swizzle);
      const smem::Analysis a = smem::analyze(r);
      GRADER_EXPECT(a.wavefronts == a.ideal,
                    grader::Feedback(which + ": warp " + std::to_string(w) +
                                     "'s 16-byte store of 32 consecutive chunks takes " +
                                     grader::wavefronts(a.wavefronts) + ", ideal " +
                                     std::to_string(a.ideal) + ".")
                        .picture(grader::draw(r))
                        .hint("each group of 8 lanes stores 128 contiguous bytes of the plain "
                              "layout: keep them in 8 different bank quads."));
    }
    for (int r0 = 0; r0 < ch10::spec::kRows; r0 += 16) {
      for (int c = 0; c < row_bytes / 16; c += 2) {
        const auto r =
            ch10::spec::ldmatrix_x4(row_bytes, ch10::Layout::kSwizzled, p, r0, c, ch10::swizzle);
        const smem::Analysis a = smem::analyze(r);
        GRADER_EXPECT(
            a.wavefronts == a.ideal,
            grader::Feedback(which + ": the ldmatrix.x4 of rows " + std::to_string(r0) + " .. " +
                             std::to_string(r0 + 15) + ", chunks " + std::to_string(c) + " and " +
                             std::to_string(c + 1) + " takes " + grader::wavefronts(a.wavefronts) +
                             ", ideal " + std::to_string(a.ideal) + ".")
                .picture(grader::draw(r))
                .hint("the 8 rows of one matrix must put their chunk in 8 different "
                      "bank quads."));
      }
    }
  }
}

TEST_CASE("ch10 exercise 2b: ldmatrix.x4 predictions for 64- and 128-byte rows", "[host]") {
  for (int row_bytes : {64, 128}) {
    for (ch10::Layout layout :
         {ch10::Layout::kPlain, ch10::Layout::kPadded16, ch10::Layout::kSwizzled}) {
      const ch10::SwizzleParams reference{row_bytes == 128 ? 3 : 2, 4, 3};
      const auto r =
          ch10::spec::ldmatrix_x4(row_bytes, layout, reference, 0, 0, ch10::spec::swizzle);
      const int model = smem::analyze(r).wavefronts;
      const int predicted = ch10::predicted_ldmatrix_wavefronts(row_bytes, layout);
      if (predicted == model) {
        SUCCEED();
        continue;
      }
      const auto problem = std::optional<grader::Feedback>(grader::prediction_feedback(
          std::string("predicted_ldmatrix_wavefronts(") + std::to_string(row_bytes) + ", " +
              layout_name(layout) + ")",
          predicted, model, ch10::kNotImplemented, r, "",
          "ldmatrix.x4 is four matrices of 8 row addresses each, served one matrix at a time; "
          "count the distinct 16-byte chunks per bank quad in each."));
      GRADER_EXPECT(!problem, *problem);
    }
  }
}
