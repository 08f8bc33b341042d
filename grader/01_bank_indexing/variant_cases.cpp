// Chapter 01's graded cases for the run's variant (grader/harness/variant.hpp): the parameters
// of the nine patterns (a stride, a struct's size and member, a tile's width and column, ...),
// drawn from the variant, and the seed of exercise 1's random addresses. Variant 0 grades the
// workbook's own cases.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "grader/01_bank_indexing/pattern_cases.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace ch01::spec {

namespace {

using grader::variant::Identity;

// What a pattern's parameters range over: n one of `n_choices`, m in [m_lo, m_hi(n)].
struct Range {
  Pattern pattern;
  PatternCase self_study;  // the workbook's own case
  std::vector<int> n_choices;
  int m_lo;
  int (*m_hi)(int n);
};

std::vector<int> from_to(int lo, int hi) {
  std::vector<int> out;
  for (int i = lo; i <= hi; ++i) out.push_back(i);
  return out;
}

// Why these ranges: every case fits the probe's shared memory (16 KiB; the largest address is
// 4 * (64 * 31 + 15)), the law of section 2 answers each, and none is an example of the lesson
// (stride 2, tiles 32 and 33 wide, a[32 * (lane % 2)], c[lane], a broadcast, p[lane].y of four
// floats: worked_by_the_lesson()). Column widths of kColumnOfTile are multiples of 4 other than
// 32 (4 to 32 ways); kColumnOfPaddedTile pads 32 by 2 to 12 (1, 2, 4 or 8 ways).
const std::vector<Range>& ranges() {
  const auto zero = [](int) { return 0; };
  static const std::vector<Range> r = {
      {Pattern::kReversedFloats, {Pattern::kReversedFloats, 31, 0}, from_to(31, 63), 0, zero},
      {Pattern::kStrideFloats, {Pattern::kStrideFloats, 8, 0}, from_to(3, 24), 0, zero},
      {Pattern::kStructMember,
       {Pattern::kStructMember, 3, 2},
       from_to(3, 8),
       1,
       [](int n) { return n - 1; }},
      {Pattern::kColumnOfTile,
       {Pattern::kColumnOfTile, 16, 3},
       {4, 8, 12, 16, 20, 24, 28, 48, 56, 64},
       1,
       [](int n) { return std::min(n - 1, 15); }},
      {Pattern::kColumnOfPaddedTile,
       {Pattern::kColumnOfPaddedTile, 34, 1},
       from_to(34, 44),
       1,
       [](int) { return 15; }},
      {Pattern::kFewFloatsShared, {Pattern::kFewFloatsShared, 4, 0}, from_to(3, 16), 0, zero},
      {Pattern::kWordsInOneBank,
       {Pattern::kWordsInOneBank, 4, 0},
       from_to(3, 16),
       0,
       [](int) { return 31; }},
      {Pattern::kBytesStride, {Pattern::kBytesStride, 16, 0}, from_to(2, 48), 0, zero},
      {Pattern::kShortsStride, {Pattern::kShortsStride, 64, 0}, from_to(3, 128), 0, zero},
  };
  return r;
}

const Range& range_of(Pattern p) {
  for (const Range& r : ranges()) {
    if (r.pattern == p) return r;
  }
  throw std::logic_error("ch01: a pattern without a range");
}

std::string cases_text(const Identity& v) {
  std::string out;
  for (const PatternCase& c : pattern_cases(v)) {
    out += "  " + std::string(name(c.pattern)) + " (n = " + std::to_string(c.n) +
           (has_m(c.pattern) ? ", m = " + std::to_string(c.m) : std::string()) +
           "): " + pattern_description(c) + "\n";
  }
  return out;
}

// The drawable case after `c` (one the lesson works) in every_drawable_case()'s order.
PatternCase next_drawable(const PatternCase& c) {
  const std::vector<PatternCase> all = every_drawable_case(c.pattern);
  for (const PatternCase& d : all) {
    if (d.n > c.n || (d.n == c.n && d.m > c.m)) return d;
  }
  return all.front();
}

}  // namespace

std::vector<PatternCase> pattern_cases(const Identity& v) {
  std::vector<PatternCase> out;
  grader::variant::Draw d(v, "ch01");
  for (const Range& r : ranges()) {
    if (d.self_study()) {
      out.push_back(r.self_study);
      continue;
    }
    PatternCase c{r.pattern, d.pick(r.n_choices), 0};
    c.m = d.between(r.m_lo, r.m_hi(c.n));
    if (worked_by_the_lesson(c)) c = next_drawable(c);  // c[8 * lane]: c[9 * lane] instead
    out.push_back(c);
  }
  return out;
}

PatternCase pattern_case(const Identity& v, Pattern p) {
  for (const PatternCase& c : pattern_cases(v)) {
    if (c.pattern == p) return c;
  }
  throw std::logic_error("ch01: a pattern without a case");
}

std::vector<PatternCase> fresh_pattern_cases(const Identity& v) {
  grader::variant::Draw d = grader::variant::fresh_draw("ch01");
  std::vector<PatternCase> out;
  for (const PatternCase& own : pattern_cases(v)) {
    std::vector<PatternCase> others;  // drawable ones: their addresses have digests
    for (const PatternCase& c : every_drawable_case(own.pattern)) {
      if (c.n != own.n || c.m != own.m) others.push_back(c);
    }
    for (const PatternCase& c : d.some(others, 2)) out.push_back(c);
  }
  return out;
}

std::vector<PatternCase> every_drawable_case(Pattern p) {
  const Range& r = range_of(p);
  std::vector<PatternCase> out;
  for (int n : r.n_choices) {
    for (int m = r.m_lo; m <= r.m_hi(n); ++m) {
      const PatternCase c{p, n, m};
      if (!worked_by_the_lesson(c)) out.push_back(c);
    }
  }
  return out;
}

bool worked_by_the_lesson(const PatternCase& c) {
  switch (c.pattern) {
    case Pattern::kStrideFloats: return c.n == 2;              // a[2 * lane]
    case Pattern::kStructMember: return c.n == 4 && c.m == 1;  // p[lane].y, 4 floats
    case Pattern::kColumnOfTile:  // tile[32][32], [32][33], and p[lane].y again
      return c.n == 32 || c.n == 33 || (c.n == 4 && c.m == 1);
    case Pattern::kColumnOfPaddedTile: return c.n == 32 || c.n == 33;
    case Pattern::kFewFloatsShared: return c.n <= 2;          // a broadcast, half and half
    case Pattern::kWordsInOneBank: return c.n <= 2;           // a[32 * (lane % 2)]
    case Pattern::kBytesStride: return c.n == 1 || c.n == 8;  // c[lane]; a[2 * lane]'s banks
    case Pattern::kShortsStride: return c.n % 64 == 4;        // a[2 * lane]'s banks and rows
    case Pattern::kReversedFloats: return false;
  }
  return false;
}

unsigned bank_of_seed(const Identity& v) {
  if (v.self_study()) return 12345;
  return static_cast<unsigned>(grader::variant::Draw(v, "ch01 bank_of").next() & 0xFFFFFFFFu);
}

namespace {

using grader::variant::GradedCase;

constexpr const char* kExercise1 = ::grader::chapter::checks::ex1.name;
constexpr const char* kExercise2 = ::grader::chapter::checks::ex2.name;
constexpr const char* kExercise3 = ::grader::chapter::checks::ex3.name;

std::string summary(const Identity& v) {
  return std::string(v.self_study() ? "The workbook's own cases" : "Your variant's cases") +
         " (n and m as in bank_indexing.cuh; exercise 2 gives their addresses, exercise 3 "
         "predicts their wavefronts):\n" +
         cases_text(v) +
         "  and two fresh cases of each pattern, drawn at each run: your rules, not nine "
         "numbers, are graded.\n" +
         "  bank_of is tried at 0..1023 and at 4096 "
         "random addresses from seed " +
         std::to_string(ch01::spec::bank_of_seed(v)) + ".";
}

std::vector<GradedCase> cases(const Identity& v) {
  std::vector<GradedCase> out;
  out.push_back({kExercise1,
                 "bank_of at 0..1023 and 4096 random addresses from seed " +
                     std::to_string(ch01::spec::bank_of_seed(v)),
                 "", "", nullptr});
  for (const ch01::PatternCase& c : ch01::spec::pattern_cases(v)) {
    out.push_back(
        {kExercise2,
         "pattern_address(" + ch01::spec::case_name(c) + "): " + ch01::pattern_description(c), "",
         "", nullptr});
  }
  for (const ch01::PatternCase& c : ch01::spec::pattern_cases(v)) {
    out.push_back(
        {kExercise3,
         "predicted_wavefronts(" + ch01::spec::case_name(c) + "): " + ch01::pattern_description(c),
         "int predicted_wavefronts(const ch01::PatternCase& c)",
         std::string("c.pattern == ch01::Pattern::") + ch01::spec::name(c.pattern) +
             " && c.n == " + std::to_string(c.n) + " && c.m == " + std::to_string(c.m),
         [c] { return static_cast<long long>(ch01::predicted_wavefronts(c)); }});
  }
  return out;
}

const grader::variant::Registration kRegistration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
}  // namespace ch01::spec

namespace ch01 {

PatternCase pattern_case(Pattern p) {
  return spec::pattern_case(grader::variant::current(), p);
}

}  // namespace ch01
