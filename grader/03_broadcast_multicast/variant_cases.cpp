// Chapter 03's graded cases for the run's variant: exercise 1's patterns, each with a stride
// and a group drawn from the variant (pattern_spec.hpp), told to the student first and listed by
// `<grader> cases`.
#include <string>
#include <vector>

#include "chapters/03_broadcast_multicast/broadcast_multicast.cuh"
#include "grader/03_broadcast_multicast/pattern_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

// Each prediction is graded on the host against the bank model, and again on the GPU against
// the counters of the same request: listed once, under the host check.
const char* const kPredictionCheck = ::grader::chapter::checks::ex1.name;

std::string summary(const grader::variant::Identity& v) {
  std::string out = v.self_study()
                        ? "Your cases are the workbook's own (the brackets of Pattern in "
                          "broadcast_multicast.cuh):\n"
                        : "Your variant's cases of exercise 1 (every array starts at byte 0):\n";
  const auto cases = ch03::spec::cases(v);
  for (ch03::Pattern p : ch03::kAllPatterns) {
    const ch03::PatternCase& c = cases[static_cast<int>(p)];
    out += "  " + std::string(ch03::spec::enumerator(p)) + ": " + ch03::spec::declaration(c) +
           "; lane reads " + ch03::spec::access(c) + "\n";
  }
  return out;
}

std::vector<grader::variant::GradedCase> graded_cases(const grader::variant::Identity& v) {
  std::vector<grader::variant::GradedCase> out;
  const auto cases = ch03::spec::cases(v);
  for (ch03::Pattern p : ch03::kAllPatterns) {
    const ch03::PatternCase& c = cases[static_cast<int>(p)];
    out.push_back({kPredictionCheck,
                   std::string(ch03::spec::enumerator(p)) + ": " + ch03::spec::declaration(c) +
                       ", lane reads " + ch03::spec::access(c),
                   "int predicted_wavefronts(ch03::Pattern p, ch03::PatternCase c)",
                   std::string("p == ch03::Pattern::") + ch03::spec::enumerator(p) +
                       " && c.stride == " + std::to_string(c.stride) +
                       " && c.group == " + std::to_string(c.group),
                   [p, c] { return static_cast<long long>(ch03::predicted_wavefronts(p, c)); }});
  }
  return out;
}

const grader::variant::Registration registration{{summary, graded_cases}};

}  // namespace
