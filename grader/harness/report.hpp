/// @file report.hpp
/// @brief The compact report a grader prints for a person: what failed first, why and what to
/// do, on the first screen; each other failed check in a few lines; where the whole report is.
///
/// The harness records every check as it runs (grader_listener.cpp, and GRADER_EXPECT,
/// which hands over each failure's Feedback before Catch2 reports it), so the report is laid
/// out from what the checks said, not from their printed text. The whole report, Catch2's
/// console output with every failure and picture, goes to a details file beside it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "grader/harness/feedback_message.hpp"

namespace grader::report {

/// One failure of a check, as the feedback mode shows it.
struct Failure {
  std::string headline;             ///< what failed, in a line
  std::vector<FeedbackPart> parts;  ///< the lines, pictures, hints and notes after it
  /// The harness's own advice, for a failure that ended the run or crashed a kernel (the
  /// check's own hint, if any, is among the parts).
  std::string what_to_do;
};

/// How a check ended.
enum class Outcome { kPassed, kFailed, kSkipped };

/// One check (a Catch2 test case) of the run.
struct Check {
  std::string name;
  Outcome outcome = Outcome::kPassed;
  std::string skip_reason;  ///< why it was skipped (kSkipped)
  Failure first;            ///< its first failure (kFailed)
  int failures = 0;         ///< how many of its cases failed, the first included
  bool ended_run = false;   ///< the run stopped inside this check (a crash, exit(), a hang)
};

/// A grader's run, as far as it got.
struct Run {
  std::string chapter;  ///< "chNN", or the program's name for a grader of no chapter
  std::string mode;     ///< "host", "gpu", ...
  std::string variant;  ///< the variant in a few words: "variant 0 (self-study)"
  std::string cases;    ///< the variant's cases, as the grader's full report begins with them
  /// What else a student may need of the run: the GPU, the seed of the random inputs.
  std::vector<std::string> setting;
  std::vector<Check> checks;
  /// Where the whole report is: a file's path, or empty when it follows the compact report
  /// (`details_missing` then says why there is no file).
  std::string details_path;
  std::string details_missing;
};

/// The size of the terminal the first screen must fit.
struct Screen {
  std::size_t columns = 80;
  std::size_t rows = 24;
};

/// The compact report: a first line with the chapter, the mode, the variant and how many checks
/// failed; the first failed check (or the one the run stopped in) with its headline, its lines
/// and its hint, within the first `screen.rows` rows of `screen.columns` columns (pictures only
/// where they fit, lines cut short with a pointer to the details where they do not); each
/// further failed check in a few lines, a family of failed cases as its first case and a count,
/// each distinct hint only the first time it appears; the skipped checks with why; the
/// variant's cases; the closing summary, one line per check; and where the details are.
std::string render(const Run& run, const Screen& screen = {});

/// The closing summary: a title, one row per check however long its name (with `reasons`, a
/// row more under each failed or skipped check: its headline or why, the first line of it),
/// and the counts. The compact report and the whole one both end with it.
std::vector<std::string> summary(const Run& run, bool reasons);

/// `text` broken into rows of at most `width` columns: the first row starts with `first`, the
/// others with `next`; lines break at spaces where they can, and each line break in `text`
/// starts a new row. Columns are counted in characters (UTF-8), not bytes.
std::vector<std::string> wrap(const std::string& text, std::size_t width, const std::string& first,
                              const std::string& next);

/// The columns `text` takes on a terminal (its UTF-8 characters).
std::size_t columns_of(const std::string& text);

/// Records a run's checks as Catch2 reports them (the graders' main calls it) and the feedback
/// of each failure (GRADER_EXPECT calls attach()).
class Recorder {
 public:
  /// A check starts.
  void start(const std::string& name);
  /// The Feedback of the failure Catch2 reports next (GRADER_EXPECT hands it over just before
  /// it fails the check): that failure is shown as the Feedback says, not from its text alone.
  void attach(const Feedback& feedback);
  /// The running check failed with `message`; `context` are the lines Catch2 keeps with it
  /// (INFO). The Feedback attached for the same headline, if any, gives the rest.
  void fail(const std::string& message, const std::vector<std::string>& context);
  /// The running check is skipped, for `reason`.
  void skip(const std::string& reason);
  /// The run stopped inside the running check (or, when none runs, after the last): `headline`
  /// says how, `what_to_do` what to look for. Its first failure becomes that, unless the
  /// stop is the failure already recorded (a crash Catch2 reported), which then gets the
  /// advice.
  void stop(const std::string& headline, const std::string& what_to_do);
  /// Gives `what_to_do` to the first failure whose headline contains `text` (the check in
  /// which a kernel crashed, say), where it has no advice yet; false when none has it.
  bool advise(const std::string& text, const std::string& what_to_do);
  /// True while a check runs.
  bool running() const { return running_; }
  /// Ends the running check.
  void end() { running_ = false; }

  Run& run() { return run_; }
  const Run& run() const { return run_; }

 private:
  Run run_;
  bool running_ = false;
  bool has_pending_ = false;
  Failure pending_;
};

/// The run being graded (one per process).
Recorder& recorder();

/// GRADER_EXPECT's hand-over: recorder().attach(feedback).
void attach_to_next_failure(const Feedback& feedback);

}  // namespace grader::report
