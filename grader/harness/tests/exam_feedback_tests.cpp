// A grader built with -Dfeedback=exam shows pass or fail and the hint only, whatever the
// environment says (this test is compiled with the harness's feedback mode set to exam).
#include <cstdlib>
#include <string>

#include "grader/harness/catch.hpp"
#include "grader/harness/feedback_message.hpp"

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
