// Checks of a chapter's own data, compiled into every chapter's grader and run with its lesson
// checks (`<grader> lesson`): each threshold keeps its headroom over the committed H200
// measurement of the reference solution, and holds on the committed H200 slices of 25% and 10%
// of the SMs (tools/maintainer/run_gpu_slices.sh), except the reference's own bars (names beginning
// with "reference_"), which are set for the full H200.
#include <stdexcept>
#include <string>

#include "grader/harness/catch.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/lesson_text.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/threshold.hpp"

TEST_CASE("every threshold has headroom over its committed H200 measurement", "[lesson]") {
  if (lesson::awaits_first_gpu_run(grader::chapter::kMeasurementFile)) {
    WARN(lesson::first_gpu_run_note(grader::chapter::kMeasurementFile));
    return;
  }
  for (const grader::Threshold& t : grader::chapter::kThresholds) {
    INFO(grader::chapter::kId << "." << t.name << ": " << t.why);
    double measured = 0;
    try {
      measured = lesson::h200(grader::chapter::kMeasurementFile, t.h200_quantity);
    } catch (const std::runtime_error& e) {
      FAIL(std::string("no H200 measurement for this threshold: ") + e.what() +
           ". Run tools/maintainer/run_gpu_suite.sh on the H200 and commit what it writes.");
    }
    INFO("H200 reference measured " << measured << ", threshold " << t.value << ", headroom "
                                    << t.headroom << " required");
    CHECK(grader::passes(t, measured));
    CHECK(grader::headroom_of(t, measured) >= t.headroom);
  }
}

TEST_CASE("every student threshold holds on the committed H200 slices of 25% and 10% of the SMs",
          "[lesson]") {
  if (lesson::awaits_first_gpu_run(grader::chapter::kMeasurementFile)) {
    WARN(lesson::first_gpu_run_note(grader::chapter::kMeasurementFile));
    return;
  }
  for (const char* slice : {"h200-sm25", "h200-sm10"}) {
    for (const grader::Threshold& t : grader::chapter::kThresholds) {
      if (std::string(t.name).rfind("reference_", 0) == 0) continue;
      const std::string file =
          std::string(WORKBOOK_SOURCE_ROOT) + "/" +
          lesson::committed_measurements(grader::chapter::kMeasurementFile, slice);
      INFO(grader::chapter::kId << "." << t.name << " on " << slice << ": " << t.why);
      double measured = 0;
      try {
        measured = grader::read_measurement(file, t.h200_quantity);
      } catch (const std::runtime_error& e) {
        FAIL(std::string("no measurement on this slice: ") + e.what() +
             ". Run tools/maintainer/run_gpu_slices.sh on the H200 and commit what it writes.");
      }
      INFO("measured " << measured << ", threshold " << t.value);
      CHECK(grader::passes(t, measured));
    }
  }
}

TEST_CASE("every speed the lesson quotes is drawn from a measurement file", "[lesson]") {
  // A marked number is held to its file and renewed with it (lesson_checks.hpp); a speed typed
  // without a marker would go stale unseen.
  for (const std::string& problem :
       lesson::unmarked_speeds(lesson::read_lesson(grader::chapter::kFolder))) {
    FAIL_CHECK(problem);
  }
}
