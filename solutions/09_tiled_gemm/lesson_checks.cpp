// Chapter 09 lesson checks (`<grader> lesson`, solution mode): the classic kernel's table
// against the model and the H200's counters, the quoted picture, the H200 numbers, and that
// the lesson leaves the graded answers to the student.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "grader/09_tiled_gemm/classic_check.hpp"
#include "grader/09_tiled_gemm/gemm_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

// The tile official grading's hidden check asks (solutions/09_tiled_gemm/hidden_checks.cpp,
// which a solution build always compiles).
namespace ch09::hidden {
ch09::spec::GradedTile hidden_tile(const grader::variant::Identity& v);
}  // namespace ch09::hidden

namespace {
using ch09::Access;

// Exercise 1's contract: TILE any whole number from 4 to 32.
std::vector<int> contract_tiles() {
  std::vector<int> tiles;
  for (int tile = 32; tile >= 4; --tile) tiles.push_back(tile);
  return tiles;
}

}  // namespace

TEST_CASE("ch09 lesson: the classic kernel's table, the model and the H200", "[lesson]") {
  // "The answer does not depend on k", for every tile of the contract; nor on the warp, for
  // every warp of 32 threads (a last warp cut short by the block can differ).
  for (int tile : contract_tiles()) {
    for (Access a : ch09::kAllAccesses) {
      const int first = smem::analyze(ch09::spec::classic_request(a, tile, 0, 0)).wavefronts;
      for (int warp = 0; warp < (tile * tile + 31) / 32; ++warp) {
        if (32 * (warp + 1) > tile * tile && warp > 0) continue;
        for (int k = 0; k < tile; ++k) {
          INFO("tile " << tile << ", " << ch09::spec::name(a) << ", warp " << warp << ", k " << k);
          CHECK(smem::analyze(ch09::spec::classic_request(a, tile, warp, k)).wavefronts == first);
        }
      }
    }
  }
  lesson::Figures figures;
  for (Access a : ch09::kAllAccesses) {
    // The table quotes the counters; the model agrees with them.
    const std::string quantity = std::string("counted.tile32.") + ch09::spec::short_name(a);
    figures.measured(std::string("counted.") + ch09::spec::short_name(a), kMeasurementFile,
                     quantity);
    CHECK(lesson::h200(kMeasurementFile, quantity) ==
          smem::analyze(ch09::spec::classic_request(a, 32)).wavefronts);
  }
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  // Section 2's picture: the Bs read of a contiguous 8 x 8 mapping, its first group.
  const std::string contiguous = lesson::quoted_picture(
      WarpRequest::from_lanes(16, Op::kLoad, [](int t) { return 32LL * (t % 16); }));
  CHECK(text.find(contiguous.substr(0, contiguous.find("group of lanes 8-15"))) !=
        std::string::npos);
  // Section 2: 16 shared loads (4 float4 loads) for 64 multiply-adds.
  static_assert(8 + 8 == 16 && 8 * 8 == 64);

  // Section 1: the classic kernel's shared loads per multiply-add, counted by the grader, and
  // what its compiled loop holds (compiled.tsv: counted in the SASS by
  // tools/maintainer/count_sass.py, as compiled_code.ini asks).
  figures.measured("classic.shared_loads_per_fma", kMeasurementFile,
                   "classic.shared_loads_per_fma");
  figures.measured("classic.wavefronts_per_shared_load", kMeasurementFile,
                   "classic.wavefronts_per_shared_load");
  const std::string compiled = "ch09_tiled_gemm/compiled";
  figures.measured("sass.classic_lds", compiled, "classic_lds");
  figures.measured("sass.classic_lds128", compiled, "classic_lds128");
  figures.measured("sass.classic_ffma", compiled, "classic_ffma");
  // The counters and the SASS agree: 32 LDS + 8 LDS.128 per 32 FFMA is 1.25 loads per FFMA, and
  // a 16-byte broadcast is served in two groups of 16 lanes (32 x 1 + 8 x 2 = 48 wavefronts).
  CHECK(lesson::h200(kMeasurementFile, "classic.shared_loads_per_fma") ==
        Approx((lesson::h200(compiled, "classic_lds") + lesson::h200(compiled, "classic_lds128")) /
               lesson::h200(compiled, "classic_ffma")));
  const smem::WarpRequest broadcast16 =
      WarpRequest::from_lanes(16, Op::kLoad, [](int) { return 0LL; });
  figures.add("model.broadcast16_wavefronts", smem::analyze(broadcast16).wavefronts,
              "the bank model: 32 lanes loading one 16-byte chunk");
  CHECK(lesson::h200(kMeasurementFile, "classic.wavefronts_per_shared_load") ==
        Approx((32.0 * 1 + 8.0 * smem::analyze(broadcast16).wavefronts) / (32 + 8)).epsilon(0.01));

  // Section 2: the register budget, as the grader read it from the compiled kernel on the H200.
  figures.measured("reference.registers", kMeasurementFile, "gemm.registers");
  figures.measured("reference.local_bytes", kMeasurementFile, "gemm.local_bytes");
  figures.measured("reference.shared_bytes", kMeasurementFile, "gemm.shared_bytes");
  figures.measured("reference.blocks_per_sm", kMeasurementFile, "gemm.blocks_per_sm");
  // Two buffers of each tile: 2 x (kAsFloats + 8 x 128) floats.
  CHECK(lesson::h200(kMeasurementFile, "gemm.shared_bytes") ==
        2 * 4 * (ch09::kAsFloats + ch09::kBlockK * ch09::kBlockN));
  // 65,536 registers per SM: at most 128 per thread for 2 blocks of 256 threads.
  CHECK(lesson::h200(kMeasurementFile, "gemm.registers") <= 65536 / (2 * ch09::kThreads));
  // 64 accumulators + 8 + 8 fragment values + 8 floats of the next K-step: 88.
  static_assert(64 + 8 + 8 + 4 + 4 == 88);
  // Section 2: the variants, timed in one run by the reference checks (reference_checks.cpp;
  // speeds vary from run to run: "about").
  figures.measured_about("variants.single_buffer", kMeasurementFile,
                         "variants.single_buffer_8quads.fraction_of_cublas", 0.03);
  for (const char* name : {"variants.double_buffer", "variants.double_buffer_again"}) {
    figures.measured_about(name, kMeasurementFile, "variants.s_mod_2_8quads.fraction_of_cublas",
                           0.03);
  }
  figures.measured_about("variants.double_buffer_pairs", kMeasurementFile,
                         "variants.s_mod_2_pairs.fraction_of_cublas", 0.03);
  for (const char* name : {"variants.unrolled", "variants.unrolled_again"}) {
    figures.measured_about(name, kMeasurementFile, "variants.unrolled_8quads.fraction_of_cublas",
                           0.03);
  }
  figures.measured_about("variants.unrolled_pairs", kMeasurementFile,
                         "variants.unrolled_pairs.fraction_of_cublas", 0.03);
  // The committed run's simplest kernel the outline allows clears the student's bar (the
  // reference checks fail the run that measures it otherwise).
  CHECK(lesson::h200(kMeasurementFile, "variants.single_buffer_8quads.speedup_over_classic") >=
        threshold("speedup_over_classic").value);
  // The step past 8 quads: the reference's float4 reads, by the bank model.
  const ch09::spec::Promise promised =
      ch09::spec::promise(ch09::as_offset, ch09::thread_row, ch09::thread_col, 1);
  figures.add("reference.load_wavefronts_per_read",
              promised.load_wavefronts / promised.load_instructions,
              "the bank model on the reference's as_offset, thread_row and thread_col");

  // Section 3 and the budget: the speeds of the grader's run (they vary from run to run).
  figures.measured_about("classic.fraction_of_cublas", kMeasurementFile,
                         "gemm.classic_fraction_of_cublas", 0.03);
  figures.measured_about("cublas.tflops", kMeasurementFile, "gemm.cublas_tflops", 3);
  figures.measured_about("reference.fraction_of_cublas", kMeasurementFile,
                         "gemm.fraction_of_cublas", 0.03);
  figures.measured_about("reference.fraction_of_cublas_again", kMeasurementFile,
                         "gemm.fraction_of_cublas", 0.03);
  figures.measured_about("reference.speedup_over_classic", kMeasurementFile,
                         "gemm.speedup_over_classic", 0.3);
  figures.measured_about("plain.fraction_of_cublas",
                         "ch09_tiled_gemm/wrong_answers/plain_transposed_store_on_gpu",
                         "gemm.fraction_of_cublas", 0.03);
  figures.threshold(threshold("speedup_over_classic"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch09 lesson: it leaves the graded answers to the student", "[lesson]") {
  // Exercise 1: the tiles the local checks ask, and the one official grading's hidden check asks
  // (TILE = 32 is the lesson's worked case, asked by neither).
  std::vector<lesson::Graded> graded;
  for (int tile : {16, 8, 4}) {
    for (Access a : ch09::kAllAccesses) {
      graded.push_back(
          {"predicted_wavefronts(" + ch09::spec::name(a) + ", " + std::to_string(tile) + ")",
           {"TILE = " + std::to_string(tile) + ": " + ch09::spec::short_name(a)},
           {ch09::spec::classic_request(a, tile)}});
    }
  }
  // Exercise 2: the reference's layout and mapping (this file is built with the solution), in
  // words or in pictures.
  graded.push_back({"as_offset (exercise 2a)",
                    {"k * 132", "132 * k", "kBlockM + 4", "pitch of 132", "rows of 132"},
                    {ch09::spec::transposed_store(ch09::as_offset, 0, 0)}});
  graded.push_back({"thread_row / thread_col (exercise 2b)",
                    {"4 * (thread % 16)", "64 * half", "4 tx + 64", "64 apart", "(lane & 1) + 2",
                     "(lane >> 1) & 7", "16 * (warp / 2)", "32 * (warp % 2)", "(t & 1) + 2",
                     "(t >> 1) & 7", "bits 1-3"},
                    {ch09::spec::b_read(ch09::thread_col, 0, 0, 0),
                     ch09::spec::a_read(ch09::as_offset, ch09::thread_row, 0, 0, 0)}});
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch09 lesson: no variant grades the lesson's worked tile", "[lesson]") {
  // The lesson works out TILE = 32 (its table, its figure, its analyser example): no variant's
  // local or hidden tile may be 32, and no tile a variant asks may be drawn in the lesson.
  std::set<std::pair<int, int>> asked;  // (tile, k)
  for (const grader::variant::Identity& v : lesson::class_variants()) {
    std::vector<ch09::spec::GradedTile> tiles = ch09::spec::graded_tiles(v);
    tiles.push_back(ch09::hidden::hidden_tile(v));
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      const ch09::spec::GradedTile& t = tiles[i];
      INFO(v.describe() << ": " << ch09::spec::tile_words(t));
      CHECK(t.tile != 32);
      CHECK((t.tile >= 4 && t.tile <= 31 && t.k >= 0 && t.k < t.tile));
      for (std::size_t j = 0; j < i; ++j) CHECK(tiles[j].tile != t.tile);
      asked.insert({t.tile, t.k});
    }
  }
  std::vector<lesson::Graded> graded;
  for (const auto& [tile, k] : asked) {
    for (Access a : ch09::kAllAccesses) {
      graded.push_back({"predicted_wavefronts(" + ch09::spec::name(a) + ", " +
                            std::to_string(tile) + ") at k = " + std::to_string(k),
                        {},
                        {ch09::spec::classic_request(a, tile, 0, k)}});
    }
  }
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}
