// Chapter 12 host checks: wgmma_descriptor against the properties every descriptor of a TMA tile
// keeps and against digests of the reference's descriptors, the rule of exercise 2a against the
// grader's model of wgmma's reads, the C tile's pitch against its property on the bank model, and
// the epilogue's predictions against the bank model.
#include <string>
#include <utility>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch12::DescriptorFields;
using ch12::OperandLayout;
using ch12::spec::DescriptorCall;
using ch12::spec::DescriptorCase;

DescriptorFields fields_of(const DescriptorCall& c) {
  return ch12::decode_descriptor(
      ch12::wgmma_descriptor(c.layout, c.tile_address, c.rows, c.k16, c.row0));
}

// The first property of exercise 1 that the student's descriptors break, over every call of
// every group, or "" when they keep them all. Only the student's own values are shown.
std::string property_missed(std::string& hint) {
  bool all_zero = true;
  for (const DescriptorCase& g : ch12::spec::descriptor_cases()) {
    for (const DescriptorCall& c : ch12::spec::calls_of(g, ch12::spec::tile_addresses())) {
      if (ch12::wgmma_descriptor(c.layout, c.tile_address, c.rows, c.k16, c.row0) != 0) {
        all_zero = false;
      }
    }
  }
  if (all_zero) {
    hint = "fill in a DescriptorFields and return encode_descriptor of it.";
    return "wgmma_descriptor returns 0 for every case: it describes nothing yet.";
  }
  for (const DescriptorCase& g : ch12::spec::descriptor_cases()) {
    const std::vector<DescriptorCall> calls = ch12::spec::calls_of(g, ch12::spec::tile_addresses());
    for (const DescriptorCall& c : calls) {
      const DescriptorFields f = fields_of(c);
      const std::string call = ch12::spec::call_text(c);
      if (f.layout != c.layout) {
        hint = "the layout type (bits 62-63) is the layout the TMA wrote the tile in.";
        return call + " has layout type " + ch12::spec::name(f.layout) + ", not " +
               ch12::spec::name(c.layout) + ", the layout of the tile it describes.";
      }
      if (f.base_offset != 0) {
        hint =
            "the TMA's tiles sit at multiples of 1024 bytes, where the swizzle's pattern "
            "starts.";
        return call + " has base offset " + std::to_string(f.base_offset) +
               ": the base offset says how far the swizzle's pattern is shifted from the "
               "address wgmma forms. Where does the pattern start, for this tile?";
      }
      const unsigned tile_bytes = static_cast<unsigned>(c.rows * ch12::kKTileBytes);
      if (f.start_address < c.tile_address || f.start_address - c.tile_address >= tile_bytes) {
        hint =
            "the start address is a shared-window address: tile_address plus where the "
            "step's first core matrix sits in the tile.";
        return call + " starts at " + ch12::spec::hex(f.start_address) + " (the 14-bit field " +
               "holds address / 16), outside its tile, " + ch12::spec::hex(c.tile_address) +
               " .. " + ch12::spec::hex(c.tile_address + tile_bytes - 1) + ".";
      }
      if (c.layout != OperandLayout::kInterleave && f.leading_byte_offset != 16) {
        hint = "wgmma ignores LBO for a K-major swizzled operand; the contract still fixes it.";
        return call + " has a leading byte offset of " + std::to_string(f.leading_byte_offset) +
               " bytes. In the swizzled layouts wgmma does not use it, and the contract fixes it "
               "at 16 bytes, so that each case has one descriptor.";
      }
    }
    // The same step of the same rows, at another tile: the TMA writes the tile the same way
    // at every multiple of 1024 bytes, so the descriptor moves with it and nothing else changes.
    const size_t per_tile = calls.size() / ch12::spec::tile_addresses().size();
    for (size_t i = per_tile; i < calls.size(); ++i) {
      const DescriptorCall& c = calls[i];
      const DescriptorCall& first = calls[i % per_tile];
      const DescriptorFields f = fields_of(c), f0 = fields_of(first);
      const unsigned into = f.start_address - c.tile_address;
      const unsigned into0 = f0.start_address - first.tile_address;
      hint =
          "the descriptor depends on tile_address only through the start address, which is "
          "tile_address plus the same offset wherever the tile sits.";
      if (into != into0) {
        return ch12::spec::call_text(first) + " starts " + std::to_string(into0) +
               " bytes into its tile, and " + ch12::spec::call_text(c) + " " +
               std::to_string(into) +
               " bytes into its: the TMA writes a tile the same way at every multiple of 1024 "
               "bytes, so the start moves with tile_address.";
      }
      if (f.leading_byte_offset != f0.leading_byte_offset ||
          f.stride_byte_offset != f0.stride_byte_offset) {
        return ch12::spec::call_text(first) + " has LBO " + std::to_string(f0.leading_byte_offset) +
               " and SBO " + std::to_string(f0.stride_byte_offset) + ", and " +
               ch12::spec::call_text(c) + " LBO " + std::to_string(f.leading_byte_offset) +
               " and SBO " + std::to_string(f.stride_byte_offset) +
               ": the byte offsets are distances inside the tile, the same wherever it sits.";
      }
    }
  }
  return "";
}

// The teaching sentence of a typical slip of exercise 1.
std::string principle_of_slip(const std::string& slip, OperandLayout layout) {
  const std::string w = std::to_string(ch12::slab_bytes(layout));
  if (slip == "sbo_of_one_row") {
    return "That descriptor's SBO steps one row. wgmma reads the tile in core matrices of 8 "
           "rows: SBO is the distance from one group of 8 rows to the next.";
  }
  if (slip == "step_of_16_bytes") {
    return "That start advances 16 bytes per k16 step. A k16 step is 16 halves of K: how many "
           "bytes of each row is that?";
  }
  if (slip == "lbo_sbo_swapped") {
    return "That descriptor has LBO and SBO swapped. In kInterleave, LBO is the distance from "
           "one core matrix to the next along K, SBO the distance from one group of 8 rows to "
           "the next.";
  }
  if (slip == "next_slab_missed") {
    return "That start stays in the first slab. In " + std::string(ch12::spec::name(layout)) +
           " the TMA writes each row's 128 bytes of K as slabs of " + w +
           " bytes, one after another: which slab holds bytes 32 k16 .. 32 k16 + 31?";
  }
  if (slip == "lbo_not_16") {
    return "That descriptor's LBO is not 16. In the swizzled layouts wgmma does not use it, and "
           "the contract fixes it at 16 bytes, so that each case has one descriptor.";
  }
  if (slip == "rows_not_row0") {
    return "That descriptor starts at row 0 whatever row0 is: wgmma reads the 64 rows from row0 "
           "on (the second consumer warpgroup reads A's rows 64 ..).";
  }
  return "";
}

// A principle per kind of pairing of exercise 2a, without its answer.
std::string pairing_hint(const ch12::Pairing& p) {
  using ch12::Change;
  if (p.how == ch12::Written::kPaddedRows) {
    return "LBO and SBO place core matrices; where does a descriptor say how far apart the 8 "
           "rows inside one core matrix are, and how far apart are they in this tile?";
  }
  switch (p.change) {
    case Change::kNone:
      return p.how == ch12::Written::kByTma
                 ? "which address does the swizzle follow, for the TMA and for wgmma with base "
                   "offset 0?"
                 : "LBO and SBO are distances: are exercise 1's the distances of this tile?";
    case Change::kLayoutType:
      return "the layout type tells wgmma how far apart a core matrix's rows are and which "
             "swizzle to undo: are they the ones that wrote the tile?";
    case Change::kStrideOffset: return "which byte distance separates 8-row groups in this tile?";
    case Change::kLeadingOffset:
      return "when does wgmma use LBO for a K-major operand, and what distance is it then?";
    case Change::kLinearStep:
      return "where do bytes 32 k16 .. 32 k16 + 31 of a row sit before the swizzle, at each k16 "
             "step?";
    case Change::kScaled:
      return "SBO is the distance from one 8-row group to the next, LBO from one core matrix to "
             "the next along K: what are they in this tile?";
    case Change::kOffsetsSwapped:
      return "LBO and SBO are two distances: are they the same in this tile?";
    case Change::kStartAtBoundary:
      return "the start address names the step's first core matrix: where is it, in a tile "
             "that starts past the boundary?";
  }
  return "";
}

// What is wrong with `pitch` as exercise 2b's answer, or "" when nothing is. `picture` gets the
// bank picture of a conflicted pitch's stores.
std::string pitch_problem(int pitch, std::string& picture) {
  const std::string is = "c_tile_pitch() is " + std::to_string(pitch);
  if (pitch == ch12::kNotImplemented) return "c_tile_pitch() is not filled in yet.";
  const auto range =
      grader::size_fault("c_tile_pitch()", pitch, ch12::kBlockN, ch12::kMaxCTilePitch, "floats",
                         "a row holds kBlockN floats of C, and the C tile reuses the stages' " +
                             std::to_string(ch12::kStages * ch12::kStageBytes) + " bytes",
                         "");
  if (range) return range->fact + ".";
  if (pitch % 4 != 0) {
    return is +
           ", not a multiple of 4 floats: the epilogue reads the C tile's rows as float4, "
           "16-byte aligned.";
  }
  const smem::Analysis a = smem::analyze(ch12::spec::epilogue_store(pitch));
  if (a.wavefronts > a.ideal) {
    // At a pitch exercise 2c asks about, the count and the picture are that question's answer.
    for (int n = 0; n < ch12::epilogue_pitches_asked(); ++n) {
      if (ch12::epilogue_pitch(n) == pitch) {
        return is +
               ": a warp's 8-byte accumulator stores are not conflict-free there (how "
               "many wavefronts they take is exercise 2c's question at this pitch).";
      }
    }
    picture = grader::draw(ch12::spec::epilogue_store(pitch));
    return is + ": a warp's 8-byte accumulator stores take " + grader::wavefronts(a.wavefronts) +
           " there, and " + std::to_string(a.ideal) + " without conflicts.";
  }
  for (int smaller = ch12::kBlockN; smaller < pitch; smaller += 4) {
    const smem::Analysis s = smem::analyze(ch12::spec::epilogue_store(smaller));
    if (s.wavefronts == s.ideal) {
      return is + ": conflict-free, but a smaller multiple of 4 floats is conflict-free too.";
    }
  }
  return "";
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  std::string hint;
  const std::string missed = property_missed(hint);
  if (!missed.empty()) GRADER_FAIL(grader::Feedback(missed).hint(hint));
  const std::vector<DescriptorCase> cases = ch12::spec::descriptor_cases();
  const auto [wrong, first, slip] = grader::first_wrong(cases, ch12::spec::descriptor_match);
  if (wrong == 0) {
    SUCCEED();
    return;
  }
  grader::Feedback f(std::string("wgmma_descriptor(") + ch12::spec::name(first.layout) +
                     ", tile_address, " + std::to_string(first.rows) +
                     ", k16, row0) is not the descriptor wgmma needs for a K-tile of " +
                     std::to_string(first.rows) + " rows in " + ch12::spec::name(first.layout) +
                     ".");
  f.line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
         " (layout, rows) cases tried are wrong; this is the first, tried at tile addresses "
         "0x400, 0x9000 and 0x1c000, every k16 step and every first row.");
  const std::string principle = principle_of_slip(slip, first.layout);
  f.line(!principle.empty()
             ? principle
             : "Its layout type, base offset and place in the tile are right, but a field is not "
               "what wgmma needs: check the start (which slab, which row, where the step starts "
               "in the row), SBO (the distance between 8-row groups) and, in kInterleave, LBO "
               "(the distance between core matrices along K).");
  GRADER_FAIL(f.hint(first.layout == OperandLayout::kInterleave
                         ? "in kInterleave each slab is a column of 8-row x 16-byte core "
                           "matrices, one after another."
                         : "in a swizzled layout wgmma swizzles the address it forms as the TMA "
                           "did: describe the tile before the swizzle."));
}

WORKBOOK_CHECK(ex2a) {
  // Each pairing reads its tile with your exercise 1 descriptors changed: graded once they are
  // right for A's 64 rows.
  for (const DescriptorCase& c : ch12::spec::descriptor_cases()) {
    if (c.rows == 64 && !ch12::spec::descriptor_match(c).right) {
      GRADER_FAIL(grader::Feedback("Not graded yet: each pairing reads its tile with your "
                                   "exercise 1 descriptors, changed as it says, and " +
                                   ch12::spec::case_name(c) + " is not right yet.")
                      .hint("finish exercise 1 first (see its check)."));
    }
  }
  // Your variant's pairings (the grader's report lists them), then six fresh ones of six kinds
  // each run draws (official grading's from its own seed): a rule passes, a table does not.
  std::vector<std::pair<ch12::Pairing, const char*>> asked;
  for (const ch12::Pairing& p : ch12::spec::variant_pairings(grader::variant::current())) {
    asked.push_back({p, "your variant's"});
  }
  grader::variant::Draw fresh = grader::variant::fresh_draw("ch12.pairings");
  for (const ch12::Pairing& p : ch12::spec::draw_pairings(fresh, 6))
    asked.push_back({p, "a fresh"});
  for (const auto& [p, whose] : asked) {
    const std::string what = "predicted_reads_right(" + ch12::spec::pairing_code(p) + ")";
    const int predicted = ch12::predicted_reads_right(p);
    if (predicted == ch12::kNotImplemented) GRADER_FAIL(grader::unfilled_prediction(what));
    if (predicted != 0 && predicted != 1) {
      GRADER_FAIL(grader::Feedback(what + " is " + std::to_string(predicted) +
                                   ": a prediction of exercise 2a is 1 (reads the tile right) "
                                   "or 0 (does not)."));
    }
    if (predicted != (ch12::spec::reads_as_written(p) ? 1 : 0)) {
      GRADER_FAIL(grader::Feedback(what + " is " + std::to_string(predicted) +
                                   ", which is wrong: " + whose + " pairing is " +
                                   ch12::spec::pairing_text(p) + ".")
                      .hint(pairing_hint(p)));
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex2b_2c) {
  const int pitch = ch12::c_tile_pitch();
  std::string picture;
  const std::string wrong_pitch = pitch_problem(pitch, picture);
  if (wrong_pitch.empty()) {
    SUCCEED();
  } else {
    grader::Feedback f(wrong_pitch);
    if (!picture.empty()) {
      f.line(
          "Lane t stores d[0], d[1] at word pitch * accumulator_row(t, 0) + "
          "accumulator_col(t, 0); the details file draws your pitch's stores bank by bank.");
      f.picture(picture);
    }
    GRADER_EXPECT(false, f.hint("a half-warp stores 4 rows of 8 consecutive floats: in which "
                                "bank does each row start?"));
  }
  // Your variant's pitches (the grader's report lists them), then four fresh ones each run
  // draws (official grading's from its own seed): a rule passes, a table of numbers does not.
  std::vector<std::pair<int, const char*>> pitches;
  for (int n = 0; n < ch12::epilogue_pitches_asked(); ++n) {
    pitches.push_back({ch12::epilogue_pitch(n), "your variant's"});
  }
  grader::variant::Draw fresh = grader::variant::fresh_draw("ch12");
  for (int at : fresh.some(ch12::spec::askable_pitches(), 4)) pitches.push_back({at, "a fresh"});
  for (const auto& [at, whose] : pitches) {
    const std::string what = "predicted_epilogue_wavefronts(" + std::to_string(at) + ")";
    const int predicted = ch12::predicted_epilogue_wavefronts(at);
    const smem::WarpRequest request = ch12::spec::epilogue_store(at);
    const int model = smem::analyze(request).wavefronts;
    GRADER_EXPECT(predicted == model,
                  grader::prediction_feedback(
                      what, predicted, model, ch12::kNotImplemented, request, "",
                      std::string(whose) + " case is " + ch12::spec::epilogue_text(at) +
                          ". A half-warp stores 4 rows of 8 words: in which bank does each row "
                          "start?"));
    if (predicted != model) break;  // the first wrong case says enough
  }
}
