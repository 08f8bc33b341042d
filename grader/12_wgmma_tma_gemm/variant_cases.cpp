// Chapter 12's graded cases by variant (grader/harness/variant.hpp): the pairings of exercise 2a
// and the pitches of exercise 2c (grader/12_wgmma_tma_gemm/exercise2_cases.hpp draws them).
// Exercise 1's cases are the same for every variant.
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace ch12 {

int epilogue_pitches_asked() {
  return static_cast<int>(spec::epilogue_pitches(grader::variant::current()).size());
}
int epilogue_pitch(int n) {
  const std::vector<int> pitches = spec::epilogue_pitches(grader::variant::current());
  return n >= 0 && n < static_cast<int>(pitches.size()) ? pitches[static_cast<size_t>(n)] : 0;
}

}  // namespace ch12

namespace {

using grader::variant::GradedCase;
using grader::variant::Identity;

const char* const kExercise1 = ::grader::chapter::checks::ex1.name;
const char* const kExercise2a = ::grader::chapter::checks::ex2a.name;
const char* const kExercise2bc = ::grader::chapter::checks::ex2b_2c.name;

// "pairing.how == ch12::Written::kByTma && ...": a pairing's fields as a C++ condition.
std::string condition(const ch12::Pairing& p) {
  std::string out;
  for (const auto& [field, value] : ch12::spec::pairing_fields(p)) {
    out += (out.empty() ? "pairing." : " && pairing.") + std::string(field) +
           " == " + (value.find("::") != std::string::npos ? "ch12::" + value : value + "u");
  }
  return out;
}

std::string summary(const Identity& v) {
  const std::vector<int> pitches = ch12::spec::epilogue_pitches(v);
  std::string pairings;
  for (const ch12::Pairing& p : ch12::spec::variant_pairings(v)) {
    pairings += "    " + ch12::spec::pairing_text(p) + "\n";
  }
  return std::string(v.self_study() ? "Your cases (the workbook's own) of exercise 2:\n"
                                    : "Your variant's cases of exercise 2:\n") +
         "  predicted_reads_right(pairing), 2a: A's tile\n" + pairings +
         "  predicted_epilogue_wavefronts(pitch): one warp's 8-byte accumulator store into a C "
         "tile of pitch " +
         ch12::spec::pitches_text(pitches) +
         " (epilogue_pitches_asked() and epilogue_pitch(n) give them to code).";
}

std::vector<GradedCase> cases(const Identity& v) {
  std::vector<GradedCase> out;
  for (const ch12::spec::DescriptorCase& c : ch12::spec::descriptor_cases()) {
    out.push_back({kExercise1,
                   ch12::spec::case_name(c) +
                       ", tiles at 0x400, 0x9000 and 0x1c000, every k16 step and first row",
                   "", "", nullptr});
  }
  for (const ch12::Pairing& p : ch12::spec::variant_pairings(v)) {
    out.push_back({kExercise2a, "does wgmma read it right: " + ch12::spec::pairing_text(p),
                   "int predicted_reads_right(const ch12::Pairing& pairing)", condition(p),
                   [p] { return static_cast<long long>(ch12::predicted_reads_right(p)); }});
  }
  out.push_back({kExercise2bc,
                 "the C tile's pitch: the least multiple of 4 floats, at least 256, at which a "
                 "warp's 8-byte accumulator stores are conflict-free",
                 "", "", nullptr});
  for (int pitch : ch12::spec::epilogue_pitches(v)) {
    out.push_back(
        {kExercise2bc, ch12::spec::epilogue_text(pitch),
         "int predicted_epilogue_wavefronts(int pitch)", "pitch == " + std::to_string(pitch),
         [pitch] { return static_cast<long long>(ch12::predicted_epilogue_wavefronts(pitch)); }});
  }
  return out;
}

const grader::variant::Registration registration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
