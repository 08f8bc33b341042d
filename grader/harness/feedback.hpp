/// @file feedback.hpp
/// @brief How graders report: a passed check counts, a failed one explains itself.
#pragma once

#include <iostream>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "cuda_check.hpp"

namespace grader {

/// Builds a teacher's message: what failed, the numbers, optionally a picture, and a hint.
class Feedback {
 public:
  /// Starts with the headline: what was checked and failed.
  explicit Feedback(const std::string& what) : headline_(what) {}
  /// Adds a line of numbers or facts.
  Feedback& line(const std::string& text) {
    text_ += "  " + text + "\n";
    return *this;
  }
  /// Adds a picture (kept as drawn).
  Feedback& picture(const std::string& drawing) {
    text_ += drawing;
    return *this;
  }
  /// Adds the hint that closes the message.
  Feedback& hint(const std::string& text) {
    text_ += "  Hint: " + text + "\n";
    return *this;
  }
  /// The whole message: the headline, then the details.
  std::string str() const { return headline_ + "\n" + text_; }
  const std::string& headline() const { return headline_; }  ///< What failed, in one line.
  const std::string& details() const { return text_; }       ///< Numbers, picture and hint.

 private:
  std::string headline_;
  std::string text_;
};

/// Number formatting for messages.
inline std::string fixed(double value, int decimals = 2) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(decimals);
  out << value;
  return out.str();
}

/// True, and nothing printed, when an earlier kernel left the GPU usable. Otherwise the caller
/// must stop: GPU_CHECKS_NEED_LIVE_CONTEXT() does that.
inline bool context_usable() {
  return gpu::context_lost().empty();
}

}  // namespace grader

/// Passes the check when `ok`, else fails it with the message built by `feedback_expr`
/// (evaluated only on failure). The test case goes on either way. Catch2 reports the headline;
/// the details follow on standard output, unwrapped, so that pictures keep their columns.
#define GRADER_EXPECT(ok, feedback_expr)                           \
  do {                                                             \
    if (ok) {                                                      \
      SUCCEED();                                                   \
    } else {                                                       \
      const ::grader::Feedback grader_feedback_ = (feedback_expr); \
      FAIL_CHECK(grader_feedback_.headline());                     \
      std::cout << grader_feedback_.details() << std::endl;        \
    }                                                              \
  } while (0)

/// Fails and ends the test case, reporting like GRADER_EXPECT.
#define GRADER_FAIL(feedback_expr)                               \
  do {                                                           \
    const ::grader::Feedback grader_feedback_ = (feedback_expr); \
    std::cout << std::flush;                                     \
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
