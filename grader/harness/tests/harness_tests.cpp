// The grading harness's own arithmetic, feedback, lesson text and measurement files.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "common/cuda/event_timer.hpp"
#include "common/model/access_arguments.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/lesson_text.hpp"
#include "grader/harness/line_fit.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/parallel_rows.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/random_values.hpp"
#include "grader/harness/speed.hpp"
#include "grader/harness/threshold.hpp"
#include "grader/harness/variant.hpp"

TEST_CASE("median of an odd and an even count", "[host][harness]") {
  CHECK(gpu::median({5, 1, 3}) == 3);
  CHECK(gpu::median({4, 1, 3, 2}) == 2.5);
  CHECK_THROWS(gpu::median({}));
}

TEST_CASE("parallel_rows visits every row once, however the rows split", "[host][harness]") {
  for (const int rows : {0, 1, 2, 7, 16, 17, 1000}) {
    std::vector<int> visits(static_cast<size_t>(rows), 0);
    grader::parallel_rows(rows, [&](int row) { ++visits[static_cast<size_t>(row)]; });
    for (int row = 0; row < rows; ++row) {
      INFO("rows " << rows << ", row " << row);
      CHECK(visits[static_cast<size_t>(row)] == 1);
    }
  }
}

TEST_CASE("random_values is gpu::random_float element by element, whatever the blocks",
          "[host][harness]") {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{65535},
                              std::size_t{65536}, std::size_t{65537}, std::size_t{200000}}) {
    const std::vector<float> values = grader::random_floats(n, 12345);
    REQUIRE(values.size() == n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += values[i] != gpu::random_float(12345, i);
    INFO("n " << n);
    CHECK(wrong == 0);
  }
  const std::vector<double> doubled =
      grader::random_values<double>(70000, 7, [](float x) { return 2.0 * x; });
  CHECK(doubled[69999] == 2.0 * gpu::random_float(7, 69999));
}

TEST_CASE("line fit recovers a line and flags a bad prediction", "[host][harness]") {
  // Cycles = 28 + 2 x wavefronts, with the chapter 01 patterns' wavefronts.
  const std::vector<double> right = {1, 2, 4, 32, 1, 1, 2, 1, 32};
  std::vector<double> cycles;
  for (double w : right) cycles.push_back(28 + 2 * w);
  const grader::LineFit exact = grader::fit_line(right, cycles);
  CHECK(exact.slope == Approx(2));
  CHECK(exact.intercept == Approx(28));
  CHECK(exact.r_squared == Approx(1));
  CHECK(exact.max_abs_residual == Approx(0).margin(1e-9));
  // Forgetting the broadcast: one pattern predicted 32 that costs 1. (Chapter 01's lesson
  // checks show that its thresholds tell such slips apart.)
  std::vector<double> wrong = right;
  wrong[5] = 32;
  CHECK(grader::fit_line(wrong, cycles).r_squared < 0.9);
  CHECK_THROWS(grader::fit_line({1, 1, 1}, {1, 2, 3}));
  CHECK_THROWS(grader::fit_line({1, 2}, {1, 2}));
}

TEST_CASE("thresholds are looked up by name, and judged on their side", "[host][harness]") {
  static constexpr grader::Threshold table[] = {
      {"speedup", 1.5, grader::Bound::kAtLeast, "x.speedup", 1.2, "a test"},
      {"residual", 0.75, grader::Bound::kAtMost, "x.residual", 2.0, "a test"},
  };
  const grader::Threshold& speedup = grader::find_threshold(table, "speedup");
  CHECK(speedup.value == 1.5);
  CHECK(grader::passes(speedup, 1.5));
  CHECK_FALSE(grader::passes(speedup, 1.49));
  CHECK(grader::headroom_of(speedup, 1.8) == Approx(1.2));
  const grader::Threshold& residual = grader::find_threshold(table, "residual");
  CHECK(grader::passes(residual, 0.5));
  CHECK_FALSE(grader::passes(residual, 0.8));
  CHECK(grader::headroom_of(residual, 0.375) == Approx(2.0));
  CHECK_THROWS_WITH(
      grader::find_threshold(table, "nothing"),
      "no threshold named nothing in this chapter's manifest (grader/NN_slug/chapter.ini)");
}

TEST_CASE("speed tables show the memory's peak, and a slow yardstick refuses a fast verdict",
          "[host][harness]") {
  const std::vector<grader::SpeedRow> rows = {{"copy", 1.0, 3e9}, {"yours", 2.0, 3e9}};
  const std::string plain = grader::speed_table(rows, 0);
  CHECK(plain.find("of peak") == std::string::npos);
  const std::string with_peak = grader::speed_table(rows, 0, 4e12);  // copy 3000 GB/s of 4000
  CHECK(with_peak.find("   of peak") != std::string::npos);
  CHECK(with_peak.find("0.50      0.38     0.50x") != std::string::npos);
  CHECK(with_peak.find("(peak: 4000 GB/s") != std::string::npos);
  CHECK_FALSE(grader::yardstick_too_slow("cuBLAS", 500, 1000, "the peak"));
  CHECK_FALSE(grader::yardstick_too_slow("cuBLAS", 400, 0, "the peak"));  // no ceiling known
  const auto refused = grader::yardstick_too_slow("cuBLAS", 450, 1000, "the fp16 tensor-core peak");
  REQUIRE(refused);
  CHECK(refused->headline().find("cuBLAS, the yardstick, reached only 0.45 of the fp16 "
                                 "tensor-core peak") != std::string::npos);
}

TEST_CASE("lesson figures: a speed typed without a marker is found", "[host][harness]") {
  const std::string text =
      "about <!--fig:a.fraction_of_copy-->0.92 of the device copy, and\n"
      "reaches 355 TFLOP/s, 2.5 times as fast, 0.98 of cuBLAS; 8 banks, 1.6% more memory.";
  const std::vector<std::string> found = lesson::unmarked_speeds(text);
  REQUIRE(found.size() == 3);
  CHECK(found[0] == "line 2: 355 TFLOP/s is quoted without a <!--fig:NAME--> marker");
  CHECK(found[1] == "line 2: 2.5 times as fast is quoted without a <!--fig:NAME--> marker");
  CHECK(found[2] == "line 2: 0.98 of cuBLAS is quoted without a <!--fig:NAME--> marker");
  CHECK(lesson::unmarked_speeds("<!--fig:x.tflops-->355 TFLOP/s").empty());
}

TEST_CASE("lesson figures: each marked number is held to its source", "[host][harness]") {
  lesson::Figures figures;
  figures.add("padded.fraction_of_copy", 0.918, "a measurement");
  figures.add("threshold.bar", 0.70, "a threshold");
  const std::string right =
      "The padded kernel reaches <!--fig:padded.fraction_of_copy-->0.92 of copy\n"
      "| exercise | at least <!--fig:threshold.bar-->0.70 |";
  CHECK(figures.problems(right).empty());
  // Rewording the sentence around a figure changes nothing; fewer digits are fine when they
  // are the value's digits.
  CHECK(figures
            .problems(
                "It now runs at <!--fig:padded.fraction_of_copy-->0.9, "
                "bar <!--fig:threshold.bar-->0.7, in full <!--fig:padded.fraction_of_copy-->0.918.")
            .empty());
  const auto one_problem = [&](const std::string& text, const std::string& says) {
    const std::vector<std::string> p = figures.problems(text);
    INFO(text);
    REQUIRE(p.size() == 1);
    CHECK(p[0].find(says) != std::string::npos);
  };
  one_problem("<!--fig:padded.fraction_of_copy-->0.85 and <!--fig:threshold.bar-->0.70",
              "figure 'padded.fraction_of_copy': the lesson prints 0.85, but a measurement gives");
  // A quoted figure is held to the digits printed: 0.918 is 0.92, never 0.93 or 0.917.
  one_problem("<!--fig:padded.fraction_of_copy-->0.93 and <!--fig:threshold.bar-->0.70",
              "the lesson prints 0.93, but a measurement gives 0.918, which rounds to other");
  one_problem("<!--fig:padded.fraction_of_copy-->0.917 and <!--fig:threshold.bar-->0.70",
              "the lesson prints 0.917");
  one_problem("<!--fig:padded.fraction_of_copy-->0.92 and <!--fig:threshold.bar-->0.71",
              "figure 'threshold.bar': the lesson prints 0.71");
  one_problem("<!--fig:padded.fraction_of_copy-->0.92",
              "figure 'threshold.bar' (a threshold) is declared but the lesson never quotes it");
  one_problem(
      "<!--fig:padded.fraction_of_copy-->0.92 <!--fig:threshold.bar-->0.70 "
      "<!--fig:other-->3",
      "the lesson marks a figure 'other' that its lesson_checks.cpp does not declare");
  one_problem("<!--fig:padded.fraction_of_copy--> 0.92 <!--fig:threshold.bar-->0.70",
              "the marker of figure 'padded.fraction_of_copy' is not followed by a number");
}

TEST_CASE("lesson figures: a speed quoted as about its value allows the run-to-run spread",
          "[host][harness]") {
  lesson::Figures figures;
  figures.about("gemm.of_cublas", 0.917, "a measurement", 0.02);
  CHECK(figures.problems("about <!--fig:gemm.of_cublas-->0.92 of cuBLAS").empty());
  CHECK(figures.problems("about <!--fig:gemm.of_cublas-->0.9 of cuBLAS").empty());
  const std::vector<std::string> p = figures.problems("about <!--fig:gemm.of_cublas-->0.95");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("further than the run-to-run spread allowed") != std::string::npos);
  CHECK_THROWS_AS(figures.about("bad", 1, "x", 0), std::invalid_argument);
}

TEST_CASE("lesson figures: a measurement that is not committed yet says what to do",
          "[host][harness]") {
  lesson::Figures figures;
  figures.measured("new.speedup", "ch00_no_such_chapter", "transpose.speedup_over_naive");
  const std::vector<std::string> p = figures.problems("<!--fig:new.speedup-->2.5");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("figure 'new.speedup' has no value") != std::string::npos);
  CHECK(p[0].find("run tools/maintainer/run_gpu_suite.sh on the H200") != std::string::npos);
}

TEST_CASE("measurements: a second run keeps what an earlier run of the same build wrote",
          "[host][harness]") {
  char folder[] = "/tmp/workbook-measurements-XXXXXX";
  REQUIRE(mkdtemp(folder) != nullptr);
  const std::string path = std::string(folder) + "/chXX_test.tsv";
  std::ofstream(path) << "# written by the GPU checks\n# quantity\tvalue\tunit\n"
                      << "gpu.speedup\t3.5\tx\nshared.value\t1\t\n";
  setenv("WORKBOOK_MEASUREMENTS_DIR", folder, 1);
  grader::record_measurement("chXX_test", "reference.only", 7, "wavefronts");
  grader::record_measurement("chXX_test", "shared.value", 2, "");
  grader::write_measurements();
  unsetenv("WORKBOOK_MEASUREMENTS_DIR");
  CHECK(grader::read_measurement(path, "gpu.speedup") == 3.5);   // kept
  CHECK(grader::read_measurement(path, "reference.only") == 7);  // added
  CHECK(grader::read_measurement(path, "shared.value") == 2);    // measured again: replaced
  std::remove(path.c_str());
  rmdir(folder);
}

TEST_CASE("lesson examples: an analyser example that draws a graded request is found",
          "[host][harness]") {
  const smem::WarpRequest graded_column =
      smem::WarpRequest::from_lanes(16, smem::Op::kLoad, [](int t) { return 128LL * t; });
  const std::vector<lesson::Graded> graded = {{"the chunk column", {}, {graded_column}}};
  const std::string text =
      "Draw it: `build/tools/analyze_smem_access --width 16 't*128'` and `--width 4 't*132'`.\n"
      "```\n> build/tools/analyze_smem_access --op ldmatrix.x4 '(t%16)*ROW + (t/16)*16'\n```\n"
      "A mention of `analyze_smem_access` alone draws nothing.\n";
  const std::vector<lesson::AnalyserExample> examples = lesson::analyser_examples(
      text, "# comment\nx.svg\tleft\t--width 16 t*256\tright\t--width 16 t*144\n");
  REQUIRE(examples.size() == 5);
  CHECK(examples[0].drawn);
  CHECK(smem::same_access(examples[0].request, graded_column));
  CHECK(examples[1].drawn);
  CHECK_FALSE(smem::same_access(examples[1].request, graded_column));
  CHECK_FALSE(examples[2].drawn);  // a placeholder is no example
  CHECK(examples[3].where == "figures.tsv line 2");
  const std::vector<std::string> found = lesson::printed_answers(text, graded);
  REQUIRE(found.size() == 2);
  CHECK(found[0].find("is the request of the chunk column") != std::string::npos);
  CHECK(found[1].find("cannot be drawn as written") != std::string::npos);
  // The same lesson with a neighbour (another pitch) and no placeholder gives nothing away.
  CHECK(lesson::printed_answers("`analyze_smem_access --width 16 't*144'`", graded).empty());
}

TEST_CASE("feedback: the answer only with WORKBOOK_REVEAL, the hint always", "[host][harness]") {
  const grader::Feedback f = grader::Feedback("predicted_wavefronts(kX) is 1, which is too low.")
                                 .line("a principle")
                                 .hint("count distinct words")
                                 .reveal("The bank model says 4 wavefronts:");
  unsetenv("WORKBOOK_REVEAL");
  CHECK(grader::feedback_mode() == grader::FeedbackMode::kTeach);
  CHECK(f.headline() == "predicted_wavefronts(kX) is 1, which is too low.");
  CHECK(f.details().find("a principle") != std::string::npos);
  CHECK(f.details().find("Hint: count distinct words") != std::string::npos);
  CHECK(f.details().find("The bank model says") == std::string::npos);
  CHECK(f.details().find("WORKBOOK_REVEAL=1") != std::string::npos);
  setenv("WORKBOOK_REVEAL", "1", 1);
  CHECK(grader::feedback_mode() == grader::FeedbackMode::kReveal);
  CHECK(f.details().find("The bank model says 4 wavefronts:") != std::string::npos);
  setenv("WORKBOOK_REVEAL", "0", 1);
  CHECK(grader::feedback_mode() == grader::FeedbackMode::kTeach);
  unsetenv("WORKBOOK_REVEAL");
}

TEST_CASE("prediction feedback: unfilled says only that and what to do; wrong says the direction",
          "[host][harness]") {
  unsetenv("WORKBOOK_REVEAL");
  const auto r = smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 16 * t; });
  const grader::Feedback unfilled =
      grader::prediction_feedback("predicted(kA)", -1, 4, -1, r, "a principle", "a hint");
  // The same words for every prediction: neither the principle nor the case's own hint.
  CHECK(unfilled.str() ==
        "predicted(kA) is not filled in yet: it still returns kNotImplemented.\n"
        "  Hint: work it out on paper as the lesson does and return your number (where the "
        "function takes the case, the rule that gives it) in place of kNotImplemented "
        "(build/tools/analyze_smem_access draws an access, to check your count).\n");
  CHECK(unfilled.str() == grader::unfilled_prediction("predicted(kA)").str());
  const grader::Feedback low =
      grader::prediction_feedback("predicted(kA)", 2, 4, -1, r, "a principle", "a hint");
  CHECK(low.headline() == "predicted(kA) is 2, which is too low.");
  CHECK(low.str().find("4 wavefronts") == std::string::npos);
  CHECK(low.str().find("a principle") != std::string::npos);
  CHECK(grader::prediction_feedback("p", 8, 4, -1, r, "", "h").headline() ==
        "p is 8, which is too high.");
}

TEST_CASE("a rule is judged on every case: the first wrong one is named, fresh or the variant's",
          "[host][harness]") {
  unsetenv("WORKBOOK_REVEAL");
  // Cases are word strides of a float load; the model's cost is gcd(stride, 32).
  const std::vector<int> strides = {1, 2, 8, 3};  // [0]: the variant's, the rest fresh
  const auto request = [](int s) {
    return smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [s](int t) { return 4LL * s * t; });
  };
  const auto text = [](int s) { return "stride " + std::to_string(s); };
  const auto hint = [](int) { return std::string("a hint"); };
  const auto judge = [&](auto rule) {
    return grader::judge_rule("rule(s)", -1, strides, rule, request, text, hint);
  };
  const auto law = [](int s) { return std::gcd(s, 32); };
  CHECK_FALSE(judge(law));
  // Right on the variant's stride and the next, wrong on 8: a table of what one run showed.
  const auto table = judge([](int s) { return s == 1 ? 1 : s == 2 ? 2 : -1; });
  REQUIRE(table);
  CHECK(table->headline() == "rule(s) returns kNotImplemented for a fresh case: stride 8.");
  const auto slip = judge([](int s) { return s % 2 == 0 ? 2 : 1; });  // right for 1, 2, 3
  REQUIRE(slip);
  CHECK(slip->headline() == "rule(s) is 2, which is too low.");
  CHECK(slip->str().find("The case: stride 8, a fresh one (right on the 2 cases before it).") !=
        std::string::npos);
  const auto unfilled = judge([](int) { return -1; });
  REQUIRE(unfilled);
  CHECK(unfilled->headline() == "rule(s) is not filled in yet: it still returns kNotImplemented.");
}

TEST_CASE("fresh cases: a local run's from its seed, official grading's from its hidden seed",
          "[host][harness]") {
  const auto draws = [] {
    grader::variant::Draw d = grader::variant::fresh_draw("chXX");
    std::vector<int> out;
    for (int i = 0; i < 8; ++i) out.push_back(d.between(0, 1 << 30));
    return out;
  };
  unsetenv("WORKBOOK_HIDDEN_SEED");
  const std::vector<int> local = draws();
  CHECK(local == draws());  // one run, one seed
  setenv("WORKBOOK_HIDDEN_SEED", "12345", 1);
  const std::vector<int> official = draws();
  CHECK(official == draws());
  CHECK(official != local);
  setenv("WORKBOOK_HIDDEN_SEED", "12346", 1);
  CHECK(draws() != official);  // each grading draws its own
  unsetenv("WORKBOOK_HIDDEN_SEED");
}
