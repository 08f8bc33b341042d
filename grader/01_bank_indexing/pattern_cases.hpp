// Chapter 01: the cases of the patterns a variant grades (variant_cases.cpp draws them).
#pragma once

#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"
#include "grader/harness/variant.hpp"

namespace ch01::spec {

/// Variant `v`'s case of pattern `p`: at self-study the workbook's own, else drawn from the
/// pattern's range (every_drawable_case()).
PatternCase pattern_case(const grader::variant::Identity& v, Pattern p);

/// Variant `v`'s cases of every pattern, in the order of kAllPatterns.
std::vector<PatternCase> pattern_cases(const grader::variant::Identity& v);

/// Two fresh cases of each pattern besides variant `v`'s (grader::variant::fresh_draw), in the
/// order of kAllPatterns: exercise 3's rules are graded on them too.
std::vector<PatternCase> fresh_pattern_cases(const grader::variant::Identity& v);

/// Every case of `p` that some variant grades (the answer key digests each one).
std::vector<PatternCase> every_drawable_case(Pattern p);

/// Whether the lesson works case `c` out (its examples, pictures and analyser commands): such
/// a case is never drawn.
bool worked_by_the_lesson(const PatternCase& c);

/// The seed of the random addresses that exercise 1's host check tries for variant `v`.
unsigned bank_of_seed(const grader::variant::Identity& v);

}  // namespace ch01::spec
