/// @file feedback_message.hpp
/// @brief A teacher's failure message, without Catch2 (usable from CUDA translation units).
#pragma once

#include <optional>
#include <sstream>
#include <string>

#include "common/cuda/cuda_check.hpp"

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

/// "1 wavefront", "32 wavefronts".
inline std::string wavefronts(long n) {
  return std::to_string(n) + (n == 1 ? " wavefront" : " wavefronts");
}

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
