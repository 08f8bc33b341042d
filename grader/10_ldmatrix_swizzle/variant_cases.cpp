// Chapter 10's graded cases for the run's variant (grader/harness/variant.hpp): exercise 2's
// row widths and ldmatrix.x4 positions. Exercise 1's parameter sets (every B <= 3, M <= 4,
// B <= S <= 4) and exercise 3's kernel are the same for every variant.
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

using grader::variant::GradedCase;
using grader::variant::Identity;

const char* const kExercise2a = ::grader::chapter::checks::ex2a.name;
const char* const kExercise2b = ::grader::chapter::checks::ex2b.name;
const char* const kExercise2bGpu = ::grader::chapter::checks::ex2b_counters.name;

std::string summary(const Identity& v) {
  std::string out = v.self_study() ? "The workbook's own cases:" : "Your variant's cases:";
  out +=
      " exercise 2a asks chosen_swizzle(row_bytes) for 32-, 64- and 128-byte rows; exercise "
      "2b asks predicted_ldmatrix_wavefronts(row_bytes, layout) for";
  for (const ch10::spec::LdmatrixCase& c : ch10::spec::ldmatrix_cases(v)) {
    out += "\n  " + ch10::spec::case_words(c);
  }
  out += "\n(lane l of the ldmatrix.x4 gives row r0 + l % 16, chunk c + l / 16)";
  return out;
}

std::vector<GradedCase> cases(const Identity& v) {
  std::vector<GradedCase> out;
  for (int row_bytes : ch10::spec::swizzle_widths_drawn()) {
    out.push_back({kExercise2a, "chosen_swizzle(" + std::to_string(row_bytes) + ")", "", "", {}});
  }
  for (const char* check : {kExercise2b, kExercise2bGpu}) {
    for (const ch10::spec::LdmatrixCase& c : ch10::spec::ldmatrix_cases(v)) {
      const int row_bytes = c.row_bytes;
      const ch10::Layout layout = c.layout;
      out.push_back({check, ch10::spec::case_words(c),
                     "int predicted_ldmatrix_wavefronts(int row_bytes, ch10::Layout layout)",
                     "row_bytes == " + std::to_string(row_bytes) +
                         " && layout == ch10::Layout::" + ch10::spec::name(layout),
                     [row_bytes, layout] {
                       return static_cast<long long>(
                           ch10::predicted_ldmatrix_wavefronts(row_bytes, layout));
                     }});
    }
  }
  return out;
}

const grader::variant::Registration kRegistration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
