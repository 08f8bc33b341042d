// Chapter 09's hidden checks: official grading (tools/instructor/grade) runs them, a hand-out
// never does. Exercise 1 for a tile of the contract the local checks do not ask (drawn from the
// variant apart from them), as_pitch for blocks larger than any local run asks, and sgemm_kernel
// on shapes of its contract the local checks do not try: answers, tables and kernels tuned to the
// local cases lose these points.
#include <random>
#include <vector>

#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/device_probes.hpp"
#include "grader/09_tiled_gemm/gemm_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/random_seed.hpp"
#include "grader/harness/variant.hpp"

namespace ch09::hidden {

// The tile official grading asks (lesson_checks.cpp holds it apart from the lesson's worked
// case): at self-study TILE = 4, a block of 16 threads, one warp with lanes 16-31 idle (TILE =
// 32, the other power of two of the contract, is the lesson's worked case). A class variant: a
// tile of the contract its local checks do not ask, drawn apart from them (the hand-out cannot
// know it), at a column k of its own.
ch09::spec::GradedTile hidden_tile(const grader::variant::Identity& v) {
  if (v.self_study()) return {4, 1};  // k = 5 % 4, as the check always asked
  std::vector<int> others;
  const std::vector<ch09::spec::GradedTile> local = ch09::spec::graded_tiles(v);
  for (int tile = 4; tile <= 31; ++tile) {
    bool asked = false;
    for (const ch09::spec::GradedTile& t : local) asked = asked || t.tile == tile;
    if (!asked) others.push_back(tile);
  }
  grader::variant::Draw d(v, "ch09 hidden");
  const int tile = d.pick(others);
  return {tile, d.between(0, tile - 1)};
}

}  // namespace ch09::hidden

WORKBOOK_CHECK(hidden_tile) {
  const ch09::spec::GradedTile t = ch09::hidden::hidden_tile(grader::variant::current());
  ch09::spec::check_classic_predictions(t.tile, t.k);
}

WORKBOOK_CHECK(hidden_as_pitch) {
  const auto problem =
      ch09::spec::pitch_rule_problem(ch09::spec::block_rows(ch09::kBlockM + 4, 512));
  GRADER_EXPECT(!problem, *problem);
}

WORKBOOK_CHECK(hidden_sgemm) {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  // Long and thin in M and in N, a deep K with an odd number of K-steps, and grids wider and
  // taller than the local shapes', from a seed of official grading's own.
  std::mt19937_64 rng(grader::hidden_seed(901));
  const int shapes[][3] = {{1152, 128, 16},  {128, 1280, 8},  {640, 896, 136},
                           {128, 128, 2056}, {2176, 256, 24}, {256, 2304, 40}};
  for (const auto& s : shapes) {
    const ch09::check::Problem p = ch09::check::random_problem(s[0], s[1], s[2], rng);
    const std::vector<float> c = gemm::run(ch09::probes::launch_yours, p, "sgemm_kernel");
    const auto problem = ch09::check::compare_with_fp64(p, c, "sgemm_kernel");
    GRADER_EXPECT(!problem, *problem);
  }
}
