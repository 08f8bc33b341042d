// Chapter 09's graded cases for the run's variant (grader/harness/variant.hpp): exercise 1's two
// tiles. Exercise 2's layout, mapping and kernel shapes are the same for every variant.
#include <string>
#include <vector>

#include "chapters/09_tiled_gemm/tiled_gemm.cuh"
#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/variant.hpp"

namespace {

using grader::variant::GradedCase;
using grader::variant::Identity;

const char* const kExercise1 = ::grader::chapter::checks::ex1.name;
const char* const kExercise1Gpu = ::grader::chapter::checks::ex1_counters.name;

// "kStoreAs", the enumerator that spec::name(a) ("kStoreAs (As[ty][tx] = ...)") starts with.
std::string enumerator(ch09::Access a) {
  const std::string named = ch09::spec::name(a);
  return named.substr(0, named.find(' '));
}

std::string summary(const Identity& v) {
  const std::vector<ch09::spec::GradedTile> tiles = ch09::spec::graded_tiles(v);
  std::string out = v.self_study() ? "The workbook's own cases: exercise 1 asks "
                                   : "Your variant's cases: exercise 1 asks ";
  out += "predicted_wavefronts(access, tile) for the seven accesses of the classic kernel at ";
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    out += (i == 0                  ? ""
            : i + 1 == tiles.size() ? " and "
                                    : ", ") +
           ch09::spec::tile_words(tiles[i]);
  }
  out +=
      ": blocks of TILE x TILE threads, __shared__ float As[TILE][TILE], Bs[TILE][TILE], each "
      "request warp 0's (threads 0-31), the inner loop at that column k.";
  return out;
}

std::vector<GradedCase> cases(const Identity& v) {
  std::vector<GradedCase> out;
  for (const char* check : {kExercise1, kExercise1Gpu}) {
    for (const ch09::spec::GradedTile& t : ch09::spec::graded_tiles(v)) {
      for (ch09::Access a : ch09::kAllAccesses) {
        const int tile = t.tile;
        out.push_back(
            {check, ch09::spec::tile_words(t) + ", warp 0: " + ch09::spec::name(a),
             "int predicted_wavefronts(ch09::Access access, int tile)",
             std::string("access == ch09::Access::") + enumerator(a) +
                 " && tile == " + std::to_string(tile),
             [a, tile] { return static_cast<long long>(ch09::predicted_wavefronts(a, tile)); }});
      }
    }
  }
  return out;
}

const grader::variant::Registration kRegistration{grader::variant::ChapterCases{summary, cases}};

}  // namespace
