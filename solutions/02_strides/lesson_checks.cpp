// Chapter 02 lesson checks (`<grader> lesson`, solution mode): every figure the lesson quotes
// by marker, and every picture and table it shows, against the bank model and the committed
// H200 measurements.
#include <string>
#include <vector>

#include "chapters/02_strides/strides.cuh"
#include "grader/02_strides/stride_spec.hpp"
#include "grader/harness/lesson_checks.hpp"

// The strides official grading's hidden check asks about (solutions/02_strides/hidden_checks.cpp,
// which a solution build always compiles).
namespace ch02::hidden {
std::vector<ch02::spec::StrideCase> hidden_strides();
}  // namespace ch02::hidden

TEST_CASE("ch02 lesson: its figures are the model's and the H200's", "[lesson]") {
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  lesson::Figures figures;
  // Section 1: byte strides that are not a multiple of 4, as the H200 measured them; the model
  // agrees (the validator checks every case).
  figures.measured_case("cases.w1_s129", "w1_s129");
  figures.measured_case("cases.w2_s3", "w2_s3");
  CHECK(lesson::wavefronts_of(1, [](int t) { return 129LL * t; }) == 4);
  CHECK(lesson::wavefronts_of(2, [](int t) { return 6LL * t; }) == 2);
  // Section 3: thread-major sum loads are stride 32, element-major staging stores stride 256:
  // both 32-way; element-major sum loads are contiguous.
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * 32 * t; }) == 32);
  CHECK(smem::analyze(WarpRequest::from_lanes(4, Op::kStore, [](int t) {
          return 4LL * 256 * t;
        })).wavefronts == 32);
  CHECK(lesson::wavefronts_of(4, [](int t) { return 4LL * t; }) == 1);
  // Section 2: the microbenchmark's line, and its offset from chapter 01's line, to the
  // digits printed.
  figures.measured("cycles.stride1", kMeasurementFile, "cycles_per_load.stride1");
  figures.measured("cycles.stride32", kMeasurementFile, "cycles_per_load.stride32");
  figures.measured("cycles.per_wavefront", kMeasurementFile, "fit.cycles_per_wavefront");
  figures.add("cycles.offset_from_ch01",
              lesson::h200(kMeasurementFile, "fit.intercept") -
                  lesson::h200("ch01_bank_indexing", "fit.intercept"),
              "fit.intercept of ch02_strides minus that of ch01_bank_indexing");
  // Section 3's speeds move from run to run (the cycles above do not): fractions of copy to
  // 0.03, the speedup to a tenth of itself.
  figures.measured_about("owner_sums.speedup", kMeasurementFile,
                         "owner_sums.speedup_over_thread_major", 0.15);
  figures.measured_about("owner_sums.fraction_of_copy", kMeasurementFile,
                         "owner_sums.fraction_of_copy", 0.03);
  figures.measured_about("owner_sums.thread_major_fraction_of_copy", kMeasurementFile,
                         "owner_sums.thread_major_fraction_of_copy", 0.03);
  figures.threshold(threshold("layout_speedup"));
  figures.threshold(threshold("cost_fit_r_squared"));
  figures.threshold(threshold("cycles_per_wavefront"));
  figures.threshold(threshold("max_residual_wavefronts"));
  lesson::check_figures(figures, text);
}

TEST_CASE("ch02 lesson: it leaves the graded answers to the student", "[lesson]") {
  // Exercise 1: every stride the checks grade, the hand-out's and official grading's hidden
  // ones (the strides the lessons work are graded by neither); the lesson must not name them
  // as an access, nor draw them with the analyser.
  std::vector<ch02::spec::StrideCase> cases = ch02::spec::graded_strides();
  for (const ch02::spec::StrideCase& c : ch02::hidden::hidden_strides()) cases.push_back(c);
  // ... and every stride a class variant may draw.
  for (int bytes : {4, 2, 1}) {
    for (int stride : ch02::spec::class_stride_domain(bytes)) {
      if (stride > 64) cases.push_back({stride, bytes});
    }
  }
  const char* names[] = {"", "c", "h", "", "a"};
  std::vector<lesson::Graded> graded;
  for (const ch02::spec::StrideCase& c : cases) {
    const int s = c.stride, bytes = c.element_bytes;
    graded.push_back(
        {"predicted_wavefronts(" + std::to_string(s) + ", " + std::to_string(bytes) + ")",
         {std::string(names[bytes]) + "[" + std::to_string(s) + " * lane]",
          "'t*" + std::to_string(s) + "*" + std::to_string(bytes) + "'"},
         {ch02::spec::stride_request(s, bytes)}});
  }
  // Exercise 3: the reference's layout (this build links it), however it is written.
  const std::string row = std::to_string(ch02::staged_index(1, 0, ch02::kThreads) -
                                         ch02::staged_index(0, 0, ch02::kThreads));
  graded.push_back({"staged_index (exercise 3)",
                    {"owner * " + row, row + " * owner", "owner * (kValuesPerThread + 1)",
                     "[32][" + row + "]", "[256][" + row + "]"},
                    {}});
  const std::string text = lesson::read_lesson(grader::chapter::kFolder);
  lesson::check_not_printed(graded, text);
  // Nor a table of strides and their costs.
  CHECK(lesson::table_row(text, "stride `s`").empty());
}

TEST_CASE("ch02 lesson: no variant grades a stride the lessons work", "[lesson]") {
  // Every class variant draws from the same domain; the test holds 2,000 of them and both ends
  // of every range to it, and the self-study cases.
  for (const grader::variant::Identity& v : lesson::class_variants({grader::variant::of("0")})) {
    for (const ch02::spec::StrideCase& c : ch02::spec::graded_strides(v)) {
      if (ch02::spec::worked_by_the_lessons(c.stride, c.element_bytes) ||
          !ch02::spec::follows_the_law(c.stride, c.element_bytes)) {
        FAIL(v.describe() + " grades " + ch02::spec::describe(c) +
             ", which the lessons work or the law does not cover");
      }
    }
    const std::vector<int> probes = ch02::spec::probe_strides(v);
    if (probes.size() != 16 || probes.back() > 64 || probes.front() < 0) {
      FAIL(v.describe() + ": the microbenchmark's strides leave 0..64 or are not 16");
    }
  }
  SUCCEED();
}
