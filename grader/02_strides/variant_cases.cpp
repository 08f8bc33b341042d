// Chapter 02's graded cases by variant (grader/harness/variant.hpp): the strides of exercise 1
// and of exercise 2's microbenchmark.
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

constexpr const char* kExercise1 = ::grader::chapter::checks::ex1.name;
constexpr const char* kExercise1Gpu = ::grader::chapter::checks::ex1_counters.name;
constexpr const char* kExercise2 = ::grader::chapter::checks::ex2.name;

std::string list(const std::vector<int>& values) {
  std::string text;
  for (int v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
  return text;
}

std::string summary(const grader::variant::Identity& v) {
  if (v.self_study()) {
    return "Exercise 1 is graded at every stride 0 to 64 of 4-, 2- and 1-byte elements where the "
           "law applies (less the lessons' own).";
  }
  std::string text = "Your variant's strides (exercise 1; predicted_wavefronts(stride, bytes)):";
  for (int bytes : {4, 2, 1}) {
    std::vector<int> strides;
    for (const ch02::spec::StrideCase& c : ch02::spec::graded_strides(v)) {
      if (c.element_bytes == bytes) strides.push_back(c.stride);
    }
    text += "\n  " + std::to_string(bytes) + "-byte elements: " + list(strides);
  }
  return text + "\nYour microbenchmark (exercise 2) is timed at strides " +
         list(ch02::spec::probe_strides(v)) + ".";
}

std::vector<grader::variant::GradedCase> cases(const grader::variant::Identity& v) {
  std::vector<grader::variant::GradedCase> out;
  for (const ch02::spec::StrideCase& c : ch02::spec::graded_strides(v)) {
    const std::string condition = "stride == " + std::to_string(c.stride) +
                                  " && element_bytes == " + std::to_string(c.element_bytes);
    for (const char* check : {kExercise1, kExercise1Gpu}) {
      out.push_back({check, ch02::spec::describe(c),
                     "int predicted_wavefronts(int stride, int element_bytes)", condition,
                     [c] { return ch02::predicted_wavefronts(c.stride, c.element_bytes); }});
    }
  }
  for (int stride : ch02::spec::probe_strides(v)) {
    out.push_back({kExercise2, "microbenchmark at stride " + std::to_string(stride), "", "", {}});
  }
  return out;
}

const grader::variant::Registration registration{{summary, cases}};

}  // namespace
