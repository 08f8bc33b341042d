// Chapter 10 lesson checks (`<grader> lesson`, solution mode): the swizzle instances and the
// worked ldmatrix example against the model, the H200 numbers, the code the lesson quotes
// against the exercise file, and that the lesson leaves the graded answers to the student.
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/10_ldmatrix_swizzle/feed_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

TEST_CASE("ch10 lesson: the swizzle instances of section 1 are what it says", "[lesson]") {
  // The reference's swizzle (this build links it).
  using ch10::swizzle;
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 16; ++c) {
      // Chapter 07's narrow tile: word 16 r + (c ^ ((r / 2) % 16)) is Swizzle<4, 0, 5> on words,
      // <4, 2, 5> on bytes.
      CHECK(swizzle(4, 0, 5, 16 * r + c) == 16 * r + (c ^ ((r / 2) % 16)));
      CHECK(swizzle(4, 2, 5, 4 * (16 * r + c)) == 4 * (16 * r + (c ^ ((r / 2) % 16))));
    }
  }
  // "It repeats every 2^(B+M+S) units", and it is its own inverse.
  for (int b = 0; b <= 3; ++b) {
    for (int m = 0; m <= 4; ++m) {
      for (int s = b; s <= 4; ++s) {
        for (int x = 0; x < (1 << (b + m + s + 2)); ++x) {
          CHECK(swizzle(b, m, s, x + (1 << (b + m + s))) ==
                swizzle(b, m, s, x) + (1 << (b + m + s)));
          CHECK(swizzle(b, m, s, swizzle(b, m, s, x)) == x);
        }
      }
    }
  }
}

TEST_CASE("ch10 lesson: the worked ldmatrix example, the numbers and the quoted code", "[lesson]") {
  // Section 2: ldmatrix.x1 of rows 0-7 at chunk 0 of a tile with 256-byte rows.
  const auto x1 = [](int b, int m, int s) {
    return WarpRequest::ldmatrix(1, [&](int l) { return ch10::swizzle(b, m, s, 256 * l); });
  };
  lesson::Figures figures;
  figures.add("x1.rows256.plain", smem::analyze(x1(0, 4, 4)).wavefronts, "the bank model");
  figures.add("x1.rows256.swizzled", smem::analyze(x1(3, 4, 4)).wavefronts, "the bank model");
  // "Row r keeps its chunk 0 at chunk position r % 8."
  for (int r = 0; r < 64; ++r) CHECK(ch10::swizzle(3, 4, 4, 256 * r) == 256 * r + 16 * (r % 8));
  // Section 2: ldmatrix never merges lane pairs; a 16-byte load of the same addresses does.
  figures.measured_case("ldm.pairs", "ldm_x4_pairs");
  figures.add("load16.pairs",
              smem::analyze(
                  WarpRequest::from_lanes(16, smem::Op::kLoad, [](int t) { return 16 * (t / 2); }))
                  .wavefronts,
              "the bank model");
  // Section 3: cp.async of 64-byte rows (warp 0, rows 0-7), counted on the H200.
  for (const char* layout : {"plain", "swizzled", "padded16"}) {
    figures.measured(std::string("cp_async.rows64.") + layout, kMeasurementFile,
                     std::string("counted.cp_async.rows64.") + layout);
  }
  // ... and the bank model's cp.async rule gives the same (exercise 2a's tiles, 64-byte rows).
  for (const auto& [layout, name] :
       {std::pair{ch10::Layout::kPlain, "plain"}, std::pair{ch10::Layout::kSwizzled, "swizzled"},
        std::pair{ch10::Layout::kPadded16, "padded16"}}) {
    INFO(name);
    CHECK(lesson::h200(kMeasurementFile, std::string("counted.cp_async.rows64.") + name) ==
          smem::analyze(
              ch10::spec::cp_async_fill(64, layout, ch10::chosen_swizzle(64), 0, ch10::swizzle))
              .wavefronts);
  }
  // Section 4.
  for (const auto& [tile, quantity] :
       {std::pair{"plain", "plain"}, std::pair{"padded", "padded16"},
        std::pair{"swizzled", "swizzled"}, std::pair{"reference", "yours"}}) {
    figures.measured(std::string(tile) + ".cp_async", kMeasurementFile,
                     std::string("counted.gemm.") + quantity + ".wavefronts_per_cp_async");
  }
  // The table's speeds, each tile's own (cuBLAS's, and a fraction of it, move from run to run
  // more than the kernels': reference_checks.cpp).
  figures.measured_about("plain.tflops", kMeasurementFile, "gemm.plain_tflops", 15);
  figures.measured_about("padded.tflops", kMeasurementFile, "gemm.padded16_tflops", 15);
  // The table's swizzled tile is the reference's own (reference_checks.cpp), Swizzle<3, 4, 3>.
  const ch10::SwizzleParams chosen = ch10::chosen_swizzle(ch10::kTcRowBytes);
  CHECK((chosen.b == 3 && chosen.m == 4 && chosen.s == 3));
  figures.measured_about("swizzled.tflops", kMeasurementFile, "gemm.swizzled_tflops", 15);
  figures.measured_about("reference.speedup_over_wmma", kMeasurementFile, "gemm.speedup_over_wmma",
                         0.3);
  figures.measured_about("reference.tflops", kMeasurementFile, "gemm.tflops", 15);
  figures.measured_about("reference.tflops_again", kMeasurementFile, "gemm.tflops", 15);
  figures.measured_about("reference.table_tflops", kMeasurementFile, "gemm.table.reference_tflops",
                         15);
  figures.threshold(threshold("speedup_over_wmma"));
  // "108 KiB of shared memory: room for rows padded by 16 bytes."
  static_assert(ch10::kTcSharedBytes == 108 * 1024);
  static_assert(ch10::kTcSlotBytes == ch10::kTcBlock * (ch10::kTcRowBytes + 16));
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  lesson::check_figures(figures, text);

  // Every line of the code the lesson quotes is a line of the exercise file as shipped.
  lesson::check_quoted_code(text, "ldmatrix_swizzle_exercise.cu");
}

TEST_CASE("ch10 lesson: the H200 counted what the model says for every graded ldmatrix.x4",
          "[lesson]") {
  for (int row_bytes : ch10::spec::kRowWidths) {
    for (ch10::Layout layout : ch10::spec::kLayouts) {
      const std::string quantity = "counted.ldmatrix_x4.rows" + std::to_string(row_bytes) + "." +
                                   (layout == ch10::Layout::kPlain      ? "plain"
                                    : layout == ch10::Layout::kPadded16 ? "padded16"
                                                                        : "swizzled");
      INFO(quantity);
      CHECK(
          lesson::h200(kMeasurementFile, quantity) ==
          smem::analyze(ch10::spec::ldmatrix_x4(row_bytes, layout, ch10::chosen_swizzle(row_bytes),
                                                0, 0, ch10::swizzle))
              .wavefronts);
    }
  }
  CHECK(lesson::h200(kMeasurementFile, "counted.gemm.yours.wavefronts_per_ldmatrix") == 4);
}

TEST_CASE("ch10 lesson: it leaves the graded answers to the student", "[lesson]") {
  std::vector<lesson::Graded> graded;
  std::vector<WarpRequest> pictures;
  // The widths the grader asks, but the 32-byte rows the lesson pictures plain.
  for (int row_bytes : {64, 128, 512, 1024}) {
    const ch10::SwizzleParams p = ch10::chosen_swizzle(row_bytes);
    for (ch10::Layout layout : ch10::spec::kLayouts) {
      for (int c = 0; c < row_bytes / 16; c += 2) {
        pictures.push_back(ch10::spec::ldmatrix_x4(row_bytes, layout, p, 0, c, ch10::swizzle));
      }
    }
    const std::string bms =
        std::to_string(p.b) + "," + std::to_string(p.m) + "," + std::to_string(p.s);
    graded.push_back({"chosen_swizzle(" + std::to_string(row_bytes) + ") (exercise 2a)",
                      {"Swizzle<" + bms + ">", "{" + bms + "}", "<" + bms + ">"},
                      {}});
  }
  graded.push_back({"predicted_ldmatrix_wavefronts (exercise 2b)", {}, pictures});
  // Exercise 1: the swizzle in C, as the lesson once printed it and as the reference writes it.
  graded.push_back(
      {"swizzle (exercise 1)",
       {"((1 << B) - 1) << (M + S)", "((1 << b) - 1) << (m + s)", "(offset & mask) >> s"},
       {}});
  // Chapter 07's exercise: its 32 x 32 tile's swizzle.
  graded.push_back({"chapter 07's swizzled tile (its exercise)",
                    {"32 r + (c ^ r)", "Swizzle<5, 0, 5>", "Swizzle<5, 2, 5>"},
                    {}});
  // Exercise 3: the reference's feed (its phrases), and the requests its fill and fragments make.
  std::vector<WarpRequest> feed;
  for (int i = 0; i < 8; ++i) {
    for (int w = 0; w < 4; ++w) feed.push_back(ch10::feed::fill_request(w, i));
  }
  for (int row0 = 0; row0 < ch10::kTcBlock; row0 += 16) {
    for (int kk = 0; kk < 4; ++kk) feed.push_back(ch10::feed::fragment_request(row0, kk));
  }
  graded.push_back(
      {"fill_copy, fragment_offset and the pipeline (exercise 3)",
       {"t / 8 + 16 * i", "row0 + lane % 16, 2 * kk + lane / 16",
        "(row0 + lane % 16) * kTcRowBytes", "cp_async_wait<kTcStages - 2>", "cp_async_wait<1>"},
       feed});
  lesson::check_not_printed(graded, lesson::read_lesson(grader::chapter::kFolder));
}

TEST_CASE("ch10 lesson: no variant grades the lesson's worked examples", "[lesson]") {
  // The lesson works 256-byte rows (its ldmatrix.x1, and Swizzle<3, 4, 4> for them) and draws a
  // plain tile of 32-byte rows with the analyser: no variant may ask either in exercise 2b (2a
  // asks 32, 64 and 128 of every variant), and no ldmatrix.x4 a variant asks may be pictured in the
  // lesson.
  std::set<std::tuple<int, int, int, int>> asked;  // (row_bytes, layout, r0, c)
  for (const grader::variant::Identity& v : lesson::class_variants()) {
    for (const ch10::spec::LdmatrixCase& c : ch10::spec::ldmatrix_cases(v)) {
      INFO(v.describe() << ": " << ch10::spec::case_words(c));
      CHECK(c.row_bytes != 256);
      CHECK(!(c.row_bytes == 32 && c.layout == ch10::Layout::kPlain));
      CHECK((c.row_bytes % 16 == 0 && c.row_bytes >= 32 && c.row_bytes <= 496));
      CHECK((c.r0 % 16 == 0 && c.r0 + 16 <= ch10::spec::kRows));
      // Read within a block's 48 KiB in every layout (the GPU check counts it there).
      CHECK((c.r0 + 15) * (c.row_bytes + 16) + 16 * (c.c + 2) <= 48 * 1024);
      CHECK((c.c % 2 == 0 && 16 * (c.c + 2) <= c.row_bytes));
      // A case's count does not depend on where the ldmatrix.x4 reads.
      const ch10::SwizzleParams p = ch10::chosen_swizzle(c.row_bytes);
      CHECK(
          smem::analyze(ch10::spec::ldmatrix_x4(c.row_bytes, c.layout, p, c.r0, c.c, ch10::swizzle))
              .wavefronts ==
          smem::analyze(ch10::spec::ldmatrix_x4(c.row_bytes, c.layout, p, 0, 0, ch10::swizzle))
              .wavefronts);
      asked.insert({c.row_bytes, static_cast<int>(c.layout), c.r0, c.c});
    }
  }
  std::vector<WarpRequest> pictures;
  for (const auto& [row_bytes, layout, r0, c] : asked) {
    pictures.push_back(ch10::spec::ldmatrix_x4(row_bytes, static_cast<ch10::Layout>(layout),
                                               ch10::chosen_swizzle(row_bytes), r0, c,
                                               ch10::swizzle));
  }
  lesson::check_not_printed(
      {{"predicted_ldmatrix_wavefronts (exercise 2b, every variant)", {}, pictures}},
      lesson::read_lesson(grader::chapter::kFolder));
}
