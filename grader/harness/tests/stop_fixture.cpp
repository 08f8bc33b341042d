// A grader whose second check ends the program as a student's code can, as
// WORKBOOK_STOP_FIXTURE says: `exit` (exit(3)), `segv` (a crash), `term` (stopped from outside,
// as meson stops a test at its time limit), `fault` (a call the student's code did not answer:
// the check fails, the run goes on); unset, it passes. test_stops.py checks what the
// compact report and the details file say of each. Its GPU check passes (test_gpu_lock.py).
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

#include "grader/harness/catch.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/subject_link.hpp"

TEST_CASE("1: a check that fails plainly", "[host][stop_fixture]") {
  GRADER_EXPECT(false, grader::Feedback("the first check failed.").hint("the first check's hint."));
}

TEST_CASE("2: a check whose code ends the program", "[host][stop_fixture]") {
  std::cout << "printed by the check before it ended" << std::endl;
  const char* how = std::getenv("WORKBOOK_STOP_FIXTURE");
  const std::string stop = how ? how : "";
  if (stop == "exit") std::exit(3);
  if (stop == "segv") std::raise(SIGSEGV);
  if (stop == "term") std::raise(SIGTERM);
  if (stop == "fault") {
    throw grader::subject::Fault("Your code crashed (SIGFPE) while f(0) ran.",
                                 "an integer division by zero in your code is the usual cause.");
  }
  SUCCEED();
}

TEST_CASE("3: a check after it", "[host][stop_fixture]") {
  SUCCEED();
}

// test_gpu_lock.py: the GPU checks wait for WORKBOOK_GPU_LOCK, then run.
TEST_CASE("4: a GPU check that passes", "[gpu][stop_fixture]") {
  std::cout << "the GPU check ran" << std::endl;
  SUCCEED();
}
