// Chapter 11 lesson checks (`<grader> lesson`, solution mode): the layout tables against the
// H200's own dumps and the grader's statement of them, the quoted numbers against the committed
// measurements, the quoted code against the exercise file, and that the lesson leaves the graded
// answers to the student.
#include <algorithm>
#include <string>
#include <vector>

#include "common/cuda/tma_map.hpp"
#include "common/model/access_arguments.hpp"
#include "grader/11_tma_layouts/answer_cases.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"
#include "grader/11_tma_layouts/tma_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

namespace {
using ch11::TmaSwizzle;

// The lesson's table line for rows 0-7 of a box, from the H200's dump, and from the reference's
// tma_smem_offset (this build links it).
std::string table_line(TmaSwizzle mode, int row_bytes, bool hardware) {
  std::string line = "| chunk places |";
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < row_bytes / 16; ++c) {
      const int place =
          hardware ? static_cast<int>(lesson::h200(
                         kMeasurementFile, std::string("layout.") + ch11::spec::name(mode) +
                                               ".rows" + std::to_string(row_bytes) + ".row" +
                                               std::to_string(r) + ".chunk" + std::to_string(c)))
                   : ch11::tma_smem_offset(mode, row_bytes, r, 16 * c) % 128 / 16;
      line += " " + std::to_string(place);
    }
    line += " |";
  }
  return line;
}
}  // namespace

TEST_CASE("ch11 lesson: the layout tables are what the H200 wrote", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  const std::pair<TmaSwizzle, int> tables[] = {{TmaSwizzle::k128B, 128},
                                               {TmaSwizzle::k64B, 64},
                                               {TmaSwizzle::k32B, 32},
                                               {TmaSwizzle::k128B, 32}};
  for (const auto& [mode, row_bytes] : tables) {
    const std::string line = table_line(mode, row_bytes, true);
    INFO(ch11::spec::name(mode) << ", rows of " << row_bytes << " bytes: " << line);
    CHECK(text.find(line) != std::string::npos);
    CHECK(line == table_line(mode, row_bytes, false));
  }
  CHECK(lesson::h200(kMeasurementFile, "layout.model_mismatches") == 0);
}

TEST_CASE("ch11 lesson: its numbers and quoted code", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  lesson::Figures figures;
  figures.measured("base128.words_as_if_aligned", kMeasurementFile,
                   "layout.k128B.base128.words_as_if_aligned");
  figures.measured("doubles.none", kMeasurementFile, "counted.doubles_column.kNone");
  figures.measured("doubles.128B", kMeasurementFile, "counted.doubles_column.k128B");
  figures.measured("read.rows_4_apart", kMeasurementFile, "counted.transpose_read.rows_4_apart");
  figures.measured("read.turned", kMeasurementFile, "counted.transpose_read.turned");
  figures.measured_about("naive.fraction_of_copy", kMeasurementFile,
                         "transpose.naive_fraction_of_copy", 0.03);
  figures.measured_about("ch08.fraction_of_copy", "ch08_wide_accesses",
                         "transpose.fraction_of_copy", 0.03);
  figures.measured_about("reference.fraction_of_copy", kMeasurementFile,
                         "transpose.fraction_of_copy", 0.03);
  figures.measured_about("reference.speedup_over_naive", kMeasurementFile,
                         "transpose.speedup_over_naive", 0.3);
  figures.measured_about("one_tile.fraction_of_copy", kMeasurementFile,
                         "design.one_tile_per_block.fraction_of_copy", 0.03);
  figures.measured_about("ring.fraction_of_copy", kMeasurementFile, "design.ring.fraction_of_copy",
                         0.03);
  figures.measured("one_tile.blocks_per_sm", kMeasurementFile,
                   "design.one_tile_per_block.blocks_per_sm");
  figures.measured("ring.blocks_per_sm", kMeasurementFile, "design.ring.blocks_per_sm");
  // "It is the faster of the two here."
  CHECK(lesson::h200(kMeasurementFile, "design.one_tile_per_block.fraction_of_copy") >
        lesson::h200(kMeasurementFile, "design.ring.fraction_of_copy"));
  // What leaving out a fence or a wait did in the reference (reference_checks.cpp).
  figures.measured("left_out.runs", kMeasurementFile, "left_out.runs");
  figures.measured("left_out.init_fence", kMeasurementFile, "left_out.init_fence.wrong_runs");
  figures.measured("left_out.proxy_fence", kMeasurementFile, "left_out.proxy_fence.wrong_runs");
  figures.measured("left_out.wait_all", kMeasurementFile, "left_out.wait_all_at_exit.wrong_runs");
  figures.measured("left_out.wait_read", kMeasurementFile,
                   "left_out.wait_read_on_reuse.wrong_runs");
  // The atoms' periods: of the reference's layout, which the H200's probe found equal to its
  // own in every byte of boxes of 64 rows (layout.model_mismatches, checked with the tables).
  for (TmaSwizzle mode : {TmaSwizzle::k32B, TmaSwizzle::k64B, TmaSwizzle::k128B}) {
    const int span = 16 << static_cast<int>(mode);
    int period = 128;
    const auto repeats = [&](int p) {
      for (int a = 0; a + p < 64 * span; ++a) {
        if (ch11::tma_smem_offset(mode, span, (a + p) / span, (a + p) % span) !=
            ch11::tma_smem_offset(mode, span, a / span, a % span) + p)
          return false;
      }
      return true;
    };
    while (!repeats(period)) period *= 2;
    figures.add(std::string("period.") + ch11::spec::name(mode), period,
                "the reference's tma_smem_offset: the least shift after which the layout repeats");
  }
  figures.threshold(threshold("speedup_over_naive"));
  lesson::check_figures(figures, text);
  // The counted reads agree with the model: the doubles, and the figure's two reads (its
  // neighbour box: 64-byte rows in the 64B mode).
  CHECK(lesson::h200(kMeasurementFile, "counted.doubles_column.k128B") ==
        smem::analyze(smem::WarpRequest::from_lanes(8, smem::Op::kLoad, [](int t) {
          return ch11::tma_smem_offset(TmaSwizzle::k128B, 128, t, 0);
        })).wavefronts);
  for (bool turn : {false, true}) {
    const smem::WarpRequest read = smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [&](int t) {
      const int q = t % 16;
      return ch11::tma_smem_offset(TmaSwizzle::k64B, 64, 4 * q + (turn ? q / 2 % 4 : 0),
                                   16 * (t / 16));
    });
    CHECK(lesson::h200(kMeasurementFile, turn ? "counted.transpose_read.turned"
                                              : "counted.transpose_read.rows_4_apart") ==
          smem::analyze(read).wavefronts);
    // The figure draws exactly these reads.
    const std::string figures =
        lesson::read_source_file("chapters/11_tma_layouts/figures/figures.tsv");
    bool drawn = false;
    for (const lesson::AnalyserExample& e : lesson::analyser_examples("", figures)) {
      drawn = drawn || (e.drawn && smem::same_access(e.request, read));
    }
    CHECK(drawn);
  }
  lesson::check_quoted_code(text, "tma_layouts_exercise.cu");
  // "A box row may not be wider than its mode's span": the spans the project's map maker holds
  // the driver's refusals to (the box_exceeds_span self-test saw the driver refuse 256-byte
  // rows in the 128B mode), so 128-byte rows admit kNone and k128B only.
  CHECK(gpu::tma_swizzle_span(CU_TENSOR_MAP_SWIZZLE_32B) < ch11::kBoxRowBytes);
  CHECK(gpu::tma_swizzle_span(CU_TENSOR_MAP_SWIZZLE_64B) < ch11::kBoxRowBytes);
  CHECK(gpu::tma_swizzle_span(CU_TENSOR_MAP_SWIZZLE_128B) == ch11::kBoxRowBytes);
}

TEST_CASE("ch11 lesson: the lesson, the header and the skeleton number the exercises alike",
          "[lesson]") {
  // Exercise 3 is 3a (the layout) and 3b (the pipeline) everywhere.
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  const std::string header = lesson::read_source_file("chapters/11_tma_layouts/tma_layouts.cuh");
  const std::string skeleton =
      lesson::read_source_file("chapters/11_tma_layouts/tma_layouts_exercise.cu");
  for (const std::string part : {"3a", "3b"}) {
    INFO("exercise " << part);
    CHECK(text.find("(" + part + ")") != std::string::npos);
    CHECK(header.find("Exercise " + part) != std::string::npos);
    CHECK(skeleton.find("Exercise " + part) != std::string::npos);
  }
  CHECK(text.find("exercise 3:") == std::string::npos);
}

TEST_CASE("ch11 lesson: it leaves the graded answers to the student", "[lesson]") {
  std::vector<lesson::Graded> graded;
  graded.push_back({"tma_smem_offset (exercise 1)",
                    {"(a>>3)&0x70", "(a>>3)&0x30", "(a>>3)&0x10", "16<<static_cast<int>(mode)"},
                    {}});
  // Every variant's boxes and columns (variant 0's first), every class variant 1..2000 and
  // both range ends, and every variant's padded tile: none may be worked by the lesson.
  std::vector<smem::WarpRequest> columns, padded;
  std::vector<int> pitches;
  const auto add = [](std::vector<smem::WarpRequest>& list, const smem::WarpRequest& r) {
    for (const smem::WarpRequest& seen : list) {
      if (smem::same_access(seen, r)) return;
    }
    list.push_back(r);
  };
  for (const grader::variant::Identity& v : lesson::class_variants({grader::variant::Identity{}})) {
    const ch11::spec::Exercise2Case e = ch11::spec::exercise2_case(v);
    for (const ch11::spec::ColumnCase& c : e.columns) {
      for (ch11::ColumnRead read : {ch11::ColumnRead::kWords, ch11::ColumnRead::kChunks}) {
        add(columns, ch11::spec::column_read(read, ch11::spec::exercise_layout(c.mode, c.row_bytes),
                                             c.column));
      }
    }
    const int pitch = e.padded_columns / 4 * 4 + 4;  // the least pitch above the tile's width
    if (std::find(pitches.begin(), pitches.end(), pitch) == pitches.end()) {
      pitches.push_back(pitch);
      add(padded, ch11::spec::padded_column(pitch));
    }
  }
  graded.push_back({"predicted_column_wavefronts (exercise 2a)", {}, columns});
  CHECK(pitches.front() == ch11::least_padded_pitch());  // variant 0's, as the reference says
  for (const int pitch : pitches) {
    graded.push_back({"least_padded_pitch (exercise 2b), pitch " + std::to_string(pitch),
                      {"[32][" + std::to_string(pitch) + "]", "pitchof" + std::to_string(pitch),
                       std::to_string(pitch) + "floats"},
                      {}});
  }
  graded.push_back({"predicted_padded_column_wavefronts(pitch_floats) (exercise 2c)", {}, padded});
  // Exercise 3: the mode, as the reference names it, and the transpose's own read in it.
  // Exercise 3b: the pipeline's answers, as the reference writes them.
  graded.push_back({"tma_transpose_kernel's pipeline (exercise 3b)",
                    {"(i/kStages)%2", "expect_tx(bar,kTileBytes)", "wait_read<kOutTiles-1>",
                     "wait_read<1>", "mbarrier_init(full_at+8*s,1)"},
                    {}});
  graded.push_back({"kTransposeSwizzle (exercise 3a)",
                    {"TmaSwizzle::k128B", "128-byte swizzle puts their chunk"},
                    {smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [](int t) {
                      const int q = t % 16;
                      return ch11::tma_smem_offset(TmaSwizzle::k128B, ch11::kBoxRowBytes,
                                                   4 * q + q / 2 % 4, 16 * (t / 16));
                    })}});
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}
