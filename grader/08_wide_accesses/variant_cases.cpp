// Chapter 08's graded cases by variant (grader/harness/variant.hpp): which tile store and load
// of the kernel exercise 3 asks about, the padding and width of its padded load, and the stride
// of its float2 store (grader/08_wide_accesses/chunk_layout_check.hpp draws them).
#include <string>
#include <vector>

#include "chapters/08_wide_accesses/wide_accesses.cuh"
#include "grader/08_wide_accesses/chunk_layout_check.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

using grader::variant::GradedCase;
using grader::variant::Identity;

const char* const kExercise1 = ::grader::chapter::checks::ex1.name;
const char* const kExercise3 = ::grader::chapter::checks::ex3.name;

std::string summary(const Identity& v) {
  const ch08::spec::Exercise3Case c = ch08::spec::exercise3_case(v);
  std::string s = v.self_study() ? "Your cases (the workbook's own) of exercise 3:\n"
                                 : "Your variant's cases of exercise 3:\n";
  s += "  predicted_tile_store_wavefronts(): " + ch08::spec::store_text(c) + ";\n";
  s += "  predicted_tile_load_wavefronts(): " + ch08::spec::load_text(c) + ";\n";
  s += "  predicted_padded_load_wavefronts(" + std::to_string(c.padded_pitch) + ", " +
       std::to_string(c.padded_bytes) + "): " + ch08::spec::padded_text(c) + ";\n";
  s += "  predicted_float2_pairs_store_wavefronts(" + std::to_string(c.pairs_stride) +
       "): " + ch08::spec::pairs_text(c) + ";\n";
  s += "  and both rules on fresh cases each run draws.";
  return s;
}

std::vector<GradedCase> cases(const Identity& v) {
  const ch08::spec::Exercise3Case c = ch08::spec::exercise3_case(v);
  return {
      {kExercise1,
       "swizzled_chunk: every chunk of the tiles of 16 and 8 chunks a row, every store of 32 "
       "chunks and every block load; tile_chunk_offset: every chunk of the 64 x 64 tile, every "
       "tile store and load",
       "", "", nullptr},
      {kExercise3, "tile store: " + ch08::spec::store_text(c),
       "int predicted_tile_store_wavefronts()", "true",
       [] { return static_cast<long long>(ch08::predicted_tile_store_wavefronts()); }},
      {kExercise3, "tile load: " + ch08::spec::load_text(c), "int predicted_tile_load_wavefronts()",
       "true", [] { return static_cast<long long>(ch08::predicted_tile_load_wavefronts()); }},
      {kExercise3, "padded load: " + ch08::spec::padded_text(c),
       "int predicted_padded_load_wavefronts(int pitch_floats, int load_bytes)",
       "pitch_floats == " + std::to_string(c.padded_pitch) +
           " && load_bytes == " + std::to_string(c.padded_bytes),
       [c] {
         return static_cast<long long>(
             ch08::predicted_padded_load_wavefronts(c.padded_pitch, c.padded_bytes));
       }},
      {kExercise3, "float2 store: " + ch08::spec::pairs_text(c),
       "int predicted_float2_pairs_store_wavefronts(int stride)",
       "stride == " + std::to_string(c.pairs_stride),
       [c] {
         return static_cast<long long>(
             ch08::predicted_float2_pairs_store_wavefronts(c.pairs_stride));
       }},
  };
}

const grader::variant::Registration registration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
