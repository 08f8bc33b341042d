// A grader built with -Dfeedback=exam shows pass or fail and the hint only, whatever the
// environment says, in its details and in its compact report (this test is compiled with the
// harness's feedback mode set to exam).
#include <cstdlib>
#include <string>

#include "grader/harness/catch.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/report.hpp"

TEST_CASE("exam feedback: pass or fail and the hint only", "[host][harness]") {
  setenv("WORKBOOK_REVEAL", "1", 1);  // a student cannot reveal in an exam build
  CHECK(grader::feedback_mode() == grader::FeedbackMode::kExam);
  const grader::Feedback f = grader::Feedback("predicted_wavefronts(kX) is 1, which is too low.")
                                 .line("a principle")
                                 .picture("a picture\n")
                                 .hint("count distinct words")
                                 .reveal("The bank model says 4 wavefronts:");
  CHECK(f.headline() == "Not passed (exam mode: pass or fail and a hint only).");
  CHECK(f.details() == "  Hint: count distinct words\n");
  unsetenv("WORKBOOK_REVEAL");
}

TEST_CASE("exam feedback: the compact report shows pass or fail and the hint only",
          "[host][harness]") {
  setenv("WORKBOOK_REVEAL", "1", 1);
  grader::report::Recorder r;
  r.run().chapter = "ch42";
  r.run().mode = "host";
  r.run().variant = "variant 0 (self-study)";
  r.start("ch42 exercise 1: predictions");
  for (int i = 0; i < 3; ++i) {
    const grader::Feedback f = grader::Feedback("predicted(k" + std::to_string(i) + ") is 1.")
                                   .line("a principle")
                                   .picture("a picture\n")
                                   .hint("count distinct words")
                                   .reveal("The bank model says 4 wavefronts:");
    r.attach(f);
    r.fail(f.headline(), {});
  }
  r.end();
  const std::string report = grader::report::render(r.run());
  CHECK(report.find("FAILED ch42 exercise 1: predictions\n"
                    "  Not passed (exam mode: pass or fail and a hint only).\n"
                    "  Hint: count distinct words\n"
                    "  + 2 more failed cases of this check.\n") != std::string::npos);
  for (const char* hidden :
       {"predicted(k", "a principle", "a picture", "The bank model says", "WORKBOOK_REVEAL"}) {
    CHECK(report.find(hidden) == std::string::npos);
  }
  unsetenv("WORKBOOK_REVEAL");
}
