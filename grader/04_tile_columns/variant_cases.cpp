// Chapter 04's graded cases by variant (grader/harness/variant.hpp): exercise 1's (element
// size, width) pairs.
#include <string>
#include <vector>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

constexpr const char* kExercise1 = ::grader::chapter::checks::ex1.name;
constexpr const char* kExercise1Gpu = ::grader::chapter::checks::ex1_counters.name;

std::string summary(const grader::variant::Identity& v) {
  if (v.self_study()) {
    return "Exercise 1 is graded at every width 1 to 256 of 1-, 2-, 4-, 8- and 16-byte elements "
           "(less the lesson's own tiles).";
  }
  std::string text = "Your variant's tiles (exercise 1; padded_pitch(element_bytes, width)):";
  for (int bytes : ch04::spec::element_sizes()) {
    std::string widths;
    for (const ch04::spec::PitchCase& c : ch04::spec::graded_pitches(v)) {
      if (c.element_bytes == bytes)
        widths += (widths.empty() ? "" : ", ") + std::to_string(c.width);
    }
    text += "\n  " + std::to_string(bytes) + "-byte elements, widths " + widths;
  }
  return text;
}

std::vector<grader::variant::GradedCase> cases(const grader::variant::Identity& v) {
  std::vector<grader::variant::GradedCase> out;
  for (const ch04::spec::PitchCase& c : ch04::spec::graded_pitches(v)) {
    const std::string condition = "element_bytes == " + std::to_string(c.element_bytes) +
                                  " && width == " + std::to_string(c.width);
    for (const char* check : {kExercise1, kExercise1Gpu}) {
      out.push_back(
          {check,
           std::to_string(c.width) + " elements of " + std::to_string(c.element_bytes) + " bytes",
           "__host__ __device__ int padded_pitch(int element_bytes, int width)", condition,
           [c] { return ch04::padded_pitch(c.element_bytes, c.width); }});
    }
  }
  return out;
}

const grader::variant::Registration registration{{summary, cases}};

}  // namespace
