/// @file feedback_message.hpp
/// @brief A teacher's failure message, without Catch2 (usable from CUDA translation units).
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/cuda/cuda_check.hpp"

namespace grader {

/// How much a failed check tells.
enum class FeedbackMode {
  kTeach,   ///< The default: what is wrong, in which direction and why; never the answer.
  kReveal,  ///< WORKBOOK_REVEAL=1: also the model's answer, with its picture.
  kExam,    ///< Built with -Dfeedback=exam: pass or fail and the hint only.
};

/// The mode of this run: kExam when the grader was built with -Dfeedback=exam, else kReveal
/// when the environment variable WORKBOOK_REVEAL is set to anything but 0, else kTeach.
FeedbackMode feedback_mode();

/// One piece of a failure message, as feedback_mode() lets it be shown. The compact report
/// (grader/harness/report.hpp) lays the pieces out; details() prints them in order.
struct FeedbackPart {
  enum class Kind {
    kLine,     ///< a line of numbers or facts, without its indentation
    kPicture,  ///< a drawing, kept as drawn (ends with a line break)
    kHint,     ///< what to try, without the "Hint: " before it
    kNote,     ///< a remark of the harness's own (how to see the answer), without brackets
  };
  Kind kind;
  std::string text;
};

/// Builds a teacher's message: what failed, the numbers, optionally a picture, a hint, and what
/// only a reveal shows. How much of it is shown depends on feedback_mode().
class Feedback {
 public:
  /// Starts with the headline: what was checked and failed.
  explicit Feedback(const std::string& what) : headline_(what) {}
  /// Adds a line of numbers or facts.
  Feedback& line(const std::string& text) {
    text_.push_back({FeedbackPart::Kind::kLine, text});
    return *this;
  }
  /// Adds a picture (kept as drawn).
  Feedback& picture(const std::string& drawing) {
    if (!drawing.empty()) text_.push_back({FeedbackPart::Kind::kPicture, drawing});
    return *this;
  }
  /// Adds the hint that closes the message (the only detail an exam shows).
  Feedback& hint(const std::string& text) {
    hints_.push_back({FeedbackPart::Kind::kHint, text});
    return *this;
  }
  /// Adds what gives the answer away (the model's number, its picture): shown only when
  /// WORKBOOK_REVEAL is set; otherwise the message says how to see it. Text that ends with a
  /// line break is a picture; other text is a line.
  Feedback& reveal(const std::string& text) {
    if (!text.empty()) {
      reveal_.push_back(
          {text.back() == '\n' ? FeedbackPart::Kind::kPicture : FeedbackPart::Kind::kLine, text});
    }
    return *this;
  }
  /// The whole message: the headline, then the details.
  std::string str() const { return headline() + "\n" + details(); }
  /// What failed, in one line.
  std::string headline() const {
    return feedback_mode() == FeedbackMode::kExam
               ? "Not passed (exam mode: pass or fail and a hint only)."
               : headline_;
  }
  /// The pieces after the headline that the mode shows, in the order details() prints them:
  /// the lines and pictures, what a reveal shows (kReveal), the hints; in teach mode a note on
  /// how to see the answer where there is one; in an exam, the hints alone.
  std::vector<FeedbackPart> shown_parts() const {
    std::vector<FeedbackPart> parts;
    const auto add = [&parts](const std::vector<FeedbackPart>& more) {
      parts.insert(parts.end(), more.begin(), more.end());
    };
    switch (feedback_mode()) {
      case FeedbackMode::kExam: add(hints_); break;
      case FeedbackMode::kReveal:
        add(text_);
        add(reveal_);
        add(hints_);
        break;
      case FeedbackMode::kTeach:
        add(text_);
        add(hints_);
        if (!reveal_.empty()) {
          parts.push_back({FeedbackPart::Kind::kNote,
                           "Stuck? WORKBOOK_REVEAL=1 before the meson test command shows the "
                           "answer."});
        }
        break;
    }
    return parts;
  }
  /// Numbers, picture, what a reveal shows, and the hint, as the mode allows.
  std::string details() const {
    std::string out;
    for (const FeedbackPart& part : shown_parts()) {
      switch (part.kind) {
        case FeedbackPart::Kind::kLine: out += "  " + part.text + "\n"; break;
        case FeedbackPart::Kind::kPicture: out += part.text; break;
        case FeedbackPart::Kind::kHint: out += "  Hint: " + part.text + "\n"; break;
        case FeedbackPart::Kind::kNote: out += "  (" + part.text + ")\n"; break;
      }
    }
    return out;
  }

 private:
  std::string headline_;
  std::vector<FeedbackPart> text_;   // lines and pictures
  std::vector<FeedbackPart> hints_;  // hints
  std::vector<FeedbackPart> reveal_;
};

/// "more" or "fewer": how a measured count compares with a prediction, without the number.
inline std::string more_or_fewer(double measured, double predicted) {
  return measured > predicted ? "more" : "fewer";
}

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

/// Why a speed or counters check did not judge a kernel with wrong results (correctness gates
/// their points): `verdict` is "Not timed" or "Not counted", `wrong` says what is wrong
/// ("sgemm_kernel gives wrong results").
inline Feedback not_judged_while_wrong(const std::string& verdict, const std::string& wrong) {
  return Feedback(verdict + ": " + wrong + " (see the correctness check).")
      .hint("make it correct first.");
}

/// Why a conflict check did not judge a layout that is not valid yet. Conflict-freedom means
/// something only for a layout that gives every element its own word in range: a layout that
/// sends every lane to one word is a broadcast, "conflict-free" and useless. So the bijection
/// (and bounds) guard gates the conflict checks' points, and they fail, saying why, until it
/// passes. `fact` is what is wrong with the layout, without a final period ("staged_index(0, 1)
/// is word 0, which staged_index(0, 0) already uses"); `guard` names the check that says more.
inline Feedback not_judged_while_invalid(const std::string& fact, const std::string& guard) {
  return Feedback("Not checked: " + fact +
                  ", so there is nothing to count conflicts on: fix the layout first.")
      .line(
          "Conflicts are counted only on a layout that gives every element a word of its own, "
          "in range: lanes sharing one word would be a broadcast, which costs nothing and "
          "stores nothing.")
      .hint("make the check \"" + guard + "\" pass first.");
}

/// What is wrong with a layout a student's functions describe, before anything is counted,
/// sized or launched through it: `fact` says it without a final period, `hint` how to mend it.
struct LayoutFault {
  std::string fact;
  std::string hint;
  std::string reveal = "";  ///< what only WORKBOOK_REVEAL shows: the right value, where known
};

/// A size a student's function returns (`call` = "staged_words()"), held to [least, most]
/// before anything is allocated from it; `unit` names what is counted ("words") and `why` the
/// bounds ("one word for each of the 256 entries, at most 48 KiB of shared memory").
inline std::optional<LayoutFault> size_fault(const std::string& call, int value, int least,
                                             int most, const std::string& unit,
                                             const std::string& why, const std::string& hint) {
  if (value >= least && value <= most) return std::nullopt;
  return LayoutFault{call + " is " + std::to_string(value) + ", outside the range allowed, " +
                         std::to_string(least) + " to " + std::to_string(most) + " " + unit + " (" +
                         why + ")",
                     hint};
}

/// Why a kernel was not launched with a layout whose size or indices are out of range (the
/// launch would size or index its shared memory with them); `guard` names the host check that
/// says more.
inline Feedback not_run_while_invalid(const LayoutFault& fault, const std::string& guard) {
  return Feedback("Not run: " + fault.fact + ".")
      .hint("the kernel would size or index its shared memory out of range: see the host check \"" +
            guard + "\".");
}

/// True, and nothing printed, when an earlier kernel left the GPU usable. Otherwise the caller
/// must stop: GPU_CHECKS_NEED_LIVE_CONTEXT() does that.
inline bool context_usable() {
  return gpu::context_lost().empty();
}

/// The major compute capability of the current GPU.
inline int compute_capability_major() {
  int device = 0, major = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major;
}

}  // namespace grader
