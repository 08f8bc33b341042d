/// @file feedback.hpp
/// @brief How graders report: a passed check counts, a failed one explains itself.
#pragma once

#include <iostream>

#include "grader/harness/catch.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/report.hpp"

/// Passes the check when `ok`, else fails it with the message built by `feedback_expr`
/// (evaluated only on failure). The test case goes on either way. Catch2 reports the headline;
/// the details follow on standard output, unwrapped, so that pictures keep their columns. The
/// harness keeps the Feedback too, for the compact report (grader/harness/report.hpp).
#define GRADER_EXPECT(ok, feedback_expr)                           \
  do {                                                             \
    if (ok) {                                                      \
      SUCCEED();                                                   \
    } else {                                                       \
      const ::grader::Feedback grader_feedback_ = (feedback_expr); \
      ::grader::report::attach_to_next_failure(grader_feedback_);  \
      FAIL_CHECK(grader_feedback_.headline());                     \
      std::cout << grader_feedback_.details() << std::endl;        \
    }                                                              \
  } while (0)

/// Fails and ends the test case, reporting like GRADER_EXPECT.
#define GRADER_FAIL(feedback_expr)                               \
  do {                                                           \
    const ::grader::Feedback grader_feedback_ = (feedback_expr); \
    std::cout << std::flush;                                     \
    ::grader::report::attach_to_next_failure(grader_feedback_);  \
    FAIL_CHECK(grader_feedback_.headline());                     \
    std::cout << grader_feedback_.details() << std::endl;        \
    return;                                                      \
  } while (0)

/// First line of every GPU test case: after a kernel crash has lost the CUDA context, the
/// remaining GPU checks are not run (the crash itself was reported once, where it happened).
#define GPU_CHECKS_NEED_LIVE_CONTEXT()                                                 \
  do {                                                                                 \
    if (!::grader::context_usable()) {                                                 \
      GRADER_SKIP("not run: the GPU context was lost when an earlier kernel crashed"); \
    }                                                                                  \
  } while (0)

/// A GPU check that needs compute capability `major`.0 or newer (the hardware features it
/// uses, for the reason): on an older GPU it is skipped, saying so.
#define GPU_CHECK_NEEDS_COMPUTE_CAPABILITY(major, features)                      \
  do {                                                                           \
    const int have_ = ::grader::compute_capability_major();                      \
    if (have_ < (major)) {                                                       \
      GRADER_SKIP(std::string(features) + " need compute capability " + #major + \
                  ".0; this GPU has " + std::to_string(have_) + ".x");           \
    }                                                                            \
  } while (0)
