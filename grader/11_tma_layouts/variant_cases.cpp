// Chapter 11's graded cases by variant (grader/harness/variant.hpp): the row width of each
// mode's box in exercise 2a and the column its warp reads, and the padded tile's width of
// exercise 2b (grader/11_tma_layouts/exercise2_cases.hpp draws them).
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch11::ColumnRead;
using grader::variant::GradedCase;
using grader::variant::Identity;

const char* const kExercise1 = ::grader::chapter::checks::ex1.name;
const char* const kExercise2a = ::grader::chapter::checks::ex2a.name;
const char* const kExercise2bc = ::grader::chapter::checks::ex2b_2c.name;

std::string summary(const Identity& v) {
  const ch11::spec::Exercise2Case e = ch11::spec::exercise2_case(v);
  std::string s = v.self_study() ? "Your cases (the workbook's own) of exercise 2:\n"
                                 : "Your variant's cases of exercise 2:\n";
  for (const ch11::spec::ColumnCase& c : e.columns) {
    s += std::string("  predicted_column_wavefronts(") + ch11::spec::name(c.mode) +
         ", read): a box of 32 rows of " + std::to_string(c.row_bytes) + " bytes (" +
         std::to_string(c.row_bytes / 4) + " floats), read down float " + std::to_string(c.column) +
         " (kChunks: its chunk " + std::to_string(c.column / 4) + ");\n";
  }
  s += "  least_padded_pitch() and predicted_padded_column_wavefronts(pitch): " +
       ch11::spec::padded_text(e) +
       " (padded_tile_columns() = " + std::to_string(e.padded_columns) + ");\n";
  s += "  and both rules on fresh boxes and pitches each run draws.";
  return s;
}

std::vector<GradedCase> cases(const Identity& v) {
  const ch11::spec::Exercise2Case e = ch11::spec::exercise2_case(v);
  std::vector<GradedCase> out;
  for (const ch11::spec::LayoutCase& c : ch11::spec::layout_cases()) {
    out.push_back(
        {kExercise1,
         ch11::spec::case_name(c) + ", rows 0 .. " + std::to_string(ch11::spec::rows_of(c) - 1), "",
         "", nullptr});
  }
  for (const ch11::spec::ColumnCase& c : e.columns) {
    for (ColumnRead read : {ColumnRead::kWords, ColumnRead::kChunks}) {
      const std::string condition = std::string("mode == ch11::TmaSwizzle::") +
                                    ch11::spec::name(c.mode) +
                                    " && read == ch11::ColumnRead::" + ch11::spec::name(read) +
                                    " && box_row_bytes == " + std::to_string(c.row_bytes) +
                                    " && column == " + std::to_string(c.column);
      out.push_back({kExercise2a, ch11::spec::column_text(c, read),
                     "int predicted_column_wavefronts(ch11::TmaSwizzle mode, ch11::ColumnRead "
                     "read, int box_row_bytes, int column)",
                     condition, [c, read] {
                       return static_cast<long long>(
                           ch11::predicted_column_wavefronts(c.mode, read, c.row_bytes, c.column));
                     }});
    }
  }
  out.push_back({kExercise2bc, "least padded pitch: " + ch11::spec::padded_text(e),
                 "int least_padded_pitch()", "true",
                 [] { return static_cast<long long>(ch11::least_padded_pitch()); }});
  out.push_back({kExercise2bc,
                 "padded column: lane t reads float 0 of row t, 32 rows at the least pitch of " +
                     ch11::spec::padded_text(e),
                 "int predicted_padded_column_wavefronts(int pitch_floats)",
                 "pitch_floats > 0",  // at the student's own least pitch, whatever it is
                 [] {
                   return static_cast<long long>(
                       ch11::predicted_padded_column_wavefronts(ch11::least_padded_pitch()));
                 }});
  return out;
}

const grader::variant::Registration registration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
