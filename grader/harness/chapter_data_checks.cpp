// Checks of a chapter's own data, compiled into every chapter's grader and run with its lesson
// checks (`<grader> lesson`): each threshold keeps its headroom over the committed H200
// measurement of the reference solution.
#include WORKBOOK_CHAPTER_THRESHOLDS  // grader/NN_slug/thresholds.hpp, named by the build

#include <stdexcept>
#include <string>

#include "grader/harness/catch.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/lesson_text.hpp"
#include "grader/harness/threshold.hpp"

TEST_CASE("every threshold has headroom over its committed H200 measurement", "[lesson]") {
  for (const grader::Threshold& t : grader::chapter::kThresholds) {
    INFO(grader::chapter::kId << "." << t.name << ": " << t.why);
    double measured = 0;
    try {
      measured = lesson::h200(grader::chapter::kMeasurementFile, t.h200_quantity);
    } catch (const std::runtime_error& e) {
      FAIL(std::string("no H200 measurement for this threshold: ") + e.what() +
           ". Run tools/run_gpu_suite.sh on the H200 and commit measurements/h200/.");
    }
    INFO("H200 reference measured " << measured << ", threshold " << t.value << ", headroom "
                                    << t.headroom << " required");
    CHECK(grader::passes(t, measured));
    CHECK(grader::headroom_of(t, measured) >= t.headroom);
  }
}
