// Chapter 11 host checks: tma_smem_offset against digests of the TMA's layouts, the pitch
// against its property, and the predictions against the bank model on the boxes as your own
// functions lay them out.
#include <algorithm>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/model/bank_model.hpp"
#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"

namespace {

using ch11::TmaSwizzle;
using ch11::spec::LayoutCase;

std::string call(const LayoutCase& c, int row, int byte) {
  return "tma_smem_offset(" + std::string(ch11::spec::name(c.mode)) + ", " +
         std::to_string(c.row_bytes) + ", " + std::to_string(row) + ", " + std::to_string(byte) +
         ")";
}

// What exercise 1's tma_smem_offset misses on case `c`, named from the slip its digest matches
// or from the first property its values break. Only the student's own values are shown.
std::string principle_of(const LayoutCase& c, const std::string& slip) {
  const TmaSwizzle mode = c.mode;
  const int rows = ch11::spec::rows_of(c), row_bytes = c.row_bytes;
  // In a swizzled mode a row is written within a span of its own, the mode's widest row.
  const int span = mode == TmaSwizzle::kNone ? row_bytes : ch11::spec::widest_row(mode);
  const auto got = [&](int row, int byte) {
    return ch11::tma_smem_offset(mode, row_bytes, row, byte);
  };
  if (slip == "xor_with_box_row") {
    return "That is the XOR with the box row. The TMA XORs with the index of the 128-byte line "
           "instead, and a line holds " +
           std::to_string(128 / span) + " box rows in this mode.";
  }
  if (slip == "dense_box") {
    return "That is where a dense box would put it. In a swizzled mode every box row takes the "
           "mode's whole span in shared memory, however narrow it is.";
  }
  bool dense = true;
  for (int row = 0; row < rows && dense; ++row) {
    for (int byte = 0; byte < row_bytes && dense; ++byte)
      dense = got(row, byte) == row * row_bytes + byte;
  }
  if (dense && mode != TmaSwizzle::kNone) {
    return "That is the box as it is, row after row, as kNone writes it. In a swizzled mode the "
           "16-byte chunks move.";
  }
  // The TMA writes whole 1024-byte atoms.
  const int atoms = (rows * span + 1023) / 1024 * 1024;
  std::vector<int> seen(static_cast<size_t>(atoms), -1);
  for (int row = 0; row < rows; ++row) {
    for (int byte = 0; byte < row_bytes; ++byte) {
      const int at = got(row, byte);
      if (at < 0 || at >= atoms) {
        return call(c, row, byte) + " is " + std::to_string(at) + ", outside the " +
               std::to_string(atoms) + " bytes of the box's 1024-byte atoms.";
      }
      if (byte % 16 != 0 && at != got(row, byte - 1) + 1) {
        return call(c, row, byte) + " is " + std::to_string(at) + ", and byte " +
               std::to_string(byte - 1) + " is at " + std::to_string(got(row, byte - 1)) +
               ": the TMA moves whole 16-byte chunks, whose bytes keep their order.";
      }
      if (mode == TmaSwizzle::kNone ? at != row * row_bytes + byte : at / span != row) {
        return call(c, row, byte) + " is " + std::to_string(at) + ", outside row " +
               std::to_string(row) + "'s " + std::to_string(span) + " bytes (" +
               std::to_string(row * span) + " .. " + std::to_string(row * span + span - 1) +
               (mode == TmaSwizzle::kNone
                    ? "): without a swizzle the box lands as it is, row after row."
                    : "): in a swizzled mode each box row takes a span of its own, and its "
                      "chunks move only within it.");
      }
      if (seen[static_cast<size_t>(at)] >= 0) {
        return call(c, row, byte) + " is " + std::to_string(at) + ", where byte " +
               std::to_string(seen[static_cast<size_t>(at)] % row_bytes) + " of row " +
               std::to_string(seen[static_cast<size_t>(at)] / row_bytes) +
               " is too: not a bijection.";
      }
      seen[static_cast<size_t>(at)] = row * row_bytes + byte;
    }
  }
  return "The chunks move within each row's span, but not to where the TMA puts them: which "
         "bits of the offset choose a chunk's place?";
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  const std::vector<LayoutCase> cases = ch11::spec::layout_cases();
  const auto [wrong, first, slip] = grader::first_wrong(cases, ch11::spec::layout_match);
  if (wrong == 0) {
    SUCCEED();
    return;
  }
  grader::Feedback f("tma_smem_offset(" + std::string(ch11::spec::name(first.mode)) + ", " +
                     std::to_string(first.row_bytes) +
                     ", row, byte) is not where the TMA puts the bytes of a box of " +
                     std::to_string(first.row_bytes) + "-byte rows in " +
                     ch11::spec::name(first.mode) + ".");
  f.line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
         " (mode, row width) cases tried are wrong; this is the first, tried on rows 0 .. " +
         std::to_string(ch11::spec::rows_of(first) - 1) + ".");
  f.line(principle_of(first, slip));
  GRADER_FAIL(f.hint(first.mode == TmaSwizzle::kNone
                         ? "without a swizzle the box is dense, row after row."
                         : "in a swizzled mode each box row starts a new span; the XOR then "
                           "takes bits of the 128-byte line index (offset bits 7 and up), which "
                           "is not the box row when the span is shorter than 128 bytes."));
}

namespace {

// Judges predicted_column_wavefronts on `box`, both reads; true when both are right. `fresh`: a
// box this run drew, not the variant's.
bool judge_column_box(const ch11::spec::ColumnCase& box, bool fresh) {
  const TmaSwizzle mode = box.mode;
  bool right = true;
  for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
    const std::string what = std::string("predicted_column_wavefronts(") + ch11::spec::name(mode) +
                             ", " + ch11::spec::name(read) + ")";
    const int predicted = ch11::predicted_column_wavefronts(mode, read, box.row_bytes, box.column);
    if (predicted == ch11::kNotImplemented) {
      GRADER_EXPECT(false, fresh ? grader::Feedback(what +
                                                    " returns kNotImplemented for a "
                                                    "fresh box: " +
                                                    ch11::spec::column_text(box, read) + ".")
                                       .hint("write the rule for any box of the mode.")
                                 : grader::unfilled_prediction(what));
      right = false;
      continue;
    }
    // The box is laid out by your own tma_smem_offset, once it is right for the mode.
    if (!ch11::spec::mode_right(mode)) {
      GRADER_EXPECT(false, grader::Feedback(what +
                                            " is checked once tma_smem_offset is right "
                                            "for " +
                                            ch11::spec::name(mode) + " (exercise 1).")
                               .hint("the grader lays the box out with your own "
                                     "tma_smem_offset; see exercise 1's check above."));
      right = false;
      continue;
    }
    const int row_bytes = box.row_bytes;
    const smem::WarpRequest request =
        ch11::spec::column_read(read, ch11::spec::exercise_layout(mode, row_bytes), box.column);
    const int model = smem::analyze(request).wavefronts;
    if (predicted == model) {
      SUCCEED();
      continue;
    }
    const std::string principle =
        read == ch11::ColumnRead::kWords && mode != TmaSwizzle::kNone && predicted == 1
            ? "A swizzle moves whole 16-byte chunks, never the words inside them: how many "
              "different banks can float " +
                  std::to_string(box.column) + " of a row reach?"
            : std::string();
    right = false;
    GRADER_EXPECT(false, grader::prediction_feedback(
                             what, predicted, model, ch11::kNotImplemented, request, principle,
                             std::string(fresh ? "a fresh case" : "your variant's case") + " is " +
                                 ch11::spec::column_text(box, read) + ". Rows of " +
                                 std::to_string(row_bytes) +
                                 " bytes: which 128-byte line, and which chunk place in it, "
                                 "does each row's chunk " +
                                 std::to_string(box.column / 4) +
                                 " take? Then count per bank (words) "
                                 "or per group of 8 lanes (chunks)."));
  }
  return right;
}

}  // namespace

WORKBOOK_CHECK(ex2a) {
  // Your variant's boxes and columns (the grader's report lists them), then, once those are
  // right, a fresh box of each mode this run draws.
  const ch11::spec::Exercise2Case cases = ch11::spec::exercise2_case(grader::variant::current());
  bool right = true;
  for (TmaSwizzle mode : ch11::spec::kModes) {
    right = judge_column_box(cases.column(mode), false) && right;
  }
  if (!right) return;
  const ch11::spec::Exercise2Case fresh = ch11::spec::fresh_exercise2_case();
  for (TmaSwizzle mode : ch11::spec::kModes) {
    if (!judge_column_box(fresh.column(mode), true)) return;
  }
}

WORKBOOK_CHECK(ex2b_2c) {
  // Your variant's tile (the grader's report says it).
  const int columns = ch11::spec::exercise2_case(grader::variant::current()).padded_columns;
  const int pitch = ch11::least_padded_pitch();
  const auto wrong_pitch = ch11::spec::pitch_problem(pitch, columns);
  GRADER_EXPECT(!wrong_pitch,
                grader::Feedback(wrong_pitch.value_or(""))
                    .line("Your variant's tile has " + std::to_string(columns) + " columns.")
                    .hint("a box row must be a multiple of 16 bytes."));
  const std::string what = "predicted_padded_column_wavefronts(pitch_floats)";
  const int predicted = ch11::predicted_padded_column_wavefronts(pitch);
  if (predicted == ch11::kNotImplemented) {
    GRADER_EXPECT(false, grader::unfilled_prediction(what));
    return;
  }
  // The column is read at your own pitch, once it is right.
  if (wrong_pitch) {
    GRADER_EXPECT(false, grader::Feedback(what + " is checked once least_padded_pitch() is right.")
                             .hint("see the pitch's message above."));
    return;
  }
  // At your pitch, then at fresh ones this run draws: the rule, not one number.
  std::vector<int> pitches = {pitch};
  for (int p : ch11::spec::fresh_padded_pitches()) pitches.push_back(p);
  for (std::size_t i = 0; i < pitches.size(); ++i) {
    const int at = pitches[i];
    const int asked = i == 0 ? predicted : ch11::predicted_padded_column_wavefronts(at);
    const smem::WarpRequest request = ch11::spec::padded_column(at);
    const int model = smem::analyze(request).wavefronts;
    if (asked == model) continue;
    if (asked == ch11::kNotImplemented) {
      GRADER_FAIL(grader::Feedback(what + " returns kNotImplemented at a fresh pitch of " +
                                   std::to_string(at) + " floats.")
                      .hint("write the rule for any pitch of the contract."));
    }
    grader::Feedback f = grader::prediction_feedback(
        what, asked, model, ch11::kNotImplemented, request,
        asked == 1 ? "Chapter 06's pitch of 33 floats made a column conflict-free because 33 is "
                     "odd: row t then starts in bank (33 t) % 32 = t % 32. Which banks do the "
                     "rows start in at this pitch?"
                   : "",
        "row t starts at word " + std::to_string(at) + " t: in which bank?");
    f.line("The pitch: " + std::to_string(at) + " floats, " +
           (i == 0 ? "your least_padded_pitch()." : "a fresh one this run drew."));
    GRADER_FAIL(f);
  }
}
