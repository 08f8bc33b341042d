// Chapter 05's graded cases for the run's variant: the tile that exercise 2's two predictions
// are about (tile_spec.hpp), told to the student first and listed by `<grader> cases`.
#include <string>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

// Each prediction is graded on the host against the bank model, and again on the GPU against
// the counters of the same request: listed once, under the host check.
const char* const kPredictionCheck = ::grader::chapter::checks::ex2.name;

std::string summary(const grader::variant::Identity& v) {
  const ch05::TileCase c = ch05::spec::tile_case(v);
  std::string out =
      v.self_study()
          ? "Your case is the workbook's own: exercise 2 asks about your kernel's tile.\n"
          : "Your variant's tile for exercise 2 (your kernel keeps its float tile[32][32]): " +
                ch05::spec::declaration(c) + " at byte 0 of shared memory.\n";
  out += "  predicted_tile_store_wavefronts(c): " + ch05::spec::store_text(c) + "\n";
  out += "  predicted_tile_load_wavefronts(c): " + ch05::spec::load_text(c) + "\n";
  out += "  and fresh tiles, drawn at each run: your rules, not two numbers, are graded.\n";
  return out;
}

std::vector<grader::variant::GradedCase> graded_cases(const grader::variant::Identity& v) {
  const ch05::TileCase c = ch05::spec::tile_case(v);
  return {
      {kPredictionCheck, ch05::spec::store_text(c),
       "int predicted_tile_store_wavefronts(ch05::TileCase c)", ch05::spec::condition(c),
       [c] { return static_cast<long long>(ch05::predicted_tile_store_wavefronts(c)); }},
      {kPredictionCheck, ch05::spec::load_text(c),
       "int predicted_tile_load_wavefronts(ch05::TileCase c)", ch05::spec::condition(c),
       [c] { return static_cast<long long>(ch05::predicted_tile_load_wavefronts(c)); }},
  };
}

const grader::variant::Registration registration{{summary, graded_cases}};

}  // namespace
