/// @file lesson_text.hpp
/// @brief What a chapter's lesson checks read: the lesson, its pictures and tables, and the
/// figures it quotes by marker.
///
/// A lesson quotes a number that a check holds to its source by putting a marker right before
/// it, `<!--fig:NAME-->0.92` (Doxygen and code-hosting sites show only the number). The
/// chapter's `lesson_checks.cpp` declares each NAME with the value it must show: a committed
/// H200 measurement, one of the chapter's thresholds, or a number the bank model computes.
/// Rewording the sentence around a figure then never breaks a check; changing the number does.
#pragma once

#include <algorithm>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "grader/harness/threshold.hpp"

namespace lesson {

/// A file of the source tree, by its path from the project root; throws naming it if unreadable.
std::string read_source_file(const std::string& path);

/// The lesson of chapter folder `folder` (`chapters/<folder>/README.md`).
std::string read_lesson(const std::string& folder);

/// Where chapter measurement file `file` ("chNN_slug") is committed for `gpu` ("h200",
/// "h200-sm25", "h200-sm10"): `solutions/NN_slug/measurements/<gpu>.tsv`, from the project root.
std::string committed_measurements(const std::string& file, const std::string& gpu);

/// Whether chapter measurement file `file` ("chNN_slug") has no committed H200 measurements yet
/// (a chapter added since the last GPU run): its measured figures and its thresholds' headroom
/// are then not checked, and the checks say so, until run_gpu_suite.sh's files are committed.
bool awaits_first_gpu_run(const std::string& file);

/// What the checks say of a chapter that awaits its first GPU run.
std::string first_gpu_run_note(const std::string& file);

/// A committed H200 measurement: `quantity` of chapter measurement file `file` ("chNN_slug").
/// `file` may also name what one of the chapter's wrong answers measured before it was
/// rejected, "chNN_slug/wrong_answers/ANSWER" (solutions/NN_slug/measurements/wrong_answers/).
double h200(const std::string& file, const std::string& quantity);

/// The picture draw_request() draws, without its closing legend line, as lessons quote it.
std::string quoted_picture(const smem::WarpRequest& request);

/// The cells of the markdown table row whose first cell is `first_cell` (empty if none).
std::vector<std::string> table_row(const std::string& lesson, const std::string& first_cell);

/// Wavefronts of a 32-lane load of `width` bytes where lane t reads byte `address(t)`.
int wavefronts_of(int width, const std::function<long long(int)>& address);

/// One answer an exercise grades, which its lesson must leave to the student: the text that
/// would give it away (an access expression, a layout formula) and, for a predicted request,
/// the request whose bank picture the lesson must not show.
struct Graded {
  std::string what;                         ///< The graded item, for the message.
  std::vector<std::string> phrases;         ///< Text the lesson must not hold (spaces ignored).
  std::vector<smem::WarpRequest> requests;  ///< Requests whose pictures it must not show.
};

/// Every graded answer that `lesson_text` gives away: a phrase it holds (compared without
/// spaces, so `a[8 * lane]` also finds `a[8*lane]`), the bank rows of a request's picture, or an
/// analyser example (analyser_examples()) that draws a graded request.
std::vector<std::string> printed_answers(const std::string& lesson_text,
                                         const std::vector<Graded>& graded,
                                         const std::string& figures_tsv = "");

/// One access a lesson tells the student to draw with the analyser.
struct AnalyserExample {
  std::string where;    ///< "line 58 of the lesson", "figures.tsv line 3".
  std::string command;  ///< The analyser's arguments, as the lesson writes them.
  bool drawn = false;   ///< The arguments make a request (else `error` says why not).
  smem::WarpRequest request;
  std::string error;
};

/// Every analyser example of a lesson: each `analyze_smem_access ARGUMENTS` (in a code span or
/// a code block; a span that goes on with more arguments, ``--width 1 't*128'``, or that is a
/// quoted expression alone, ``'(t%16)*32'``, is one too), and
/// each request of its figure list `figures_tsv` (chapters/NN_slug/figures/figures.tsv). An
/// example written with a placeholder (``'(t%16)*ROW'``) is not drawn, and says so.
std::vector<AnalyserExample> analyser_examples(const std::string& lesson_text,
                                               const std::string& figures_tsv);

/// The H200 cases that the bank model in the browser shows its counted figure for, from the
/// project root. The hand-out ships the file, so none of its cases may be a graded request.
inline constexpr const char* kBrowserCountedCases = "tools/student/browser/h200-counted-cases.tsv";

/// Every case of the case file `counted_tsv` (its text; `source` names it) that asks the same
/// question as a request of `graded`: the same instruction (operation, width, matrices, global
/// rows), the same lanes active, at addresses that differ by one whole number of 4-byte words (of
/// 128-byte lines for cp.async, whose cost follows the shared line), so that one's picture is
/// the other's with its banks rotated, and their costs are the same. One message each, naming
/// the case and the graded item.
std::vector<std::string> counted_answers(const std::vector<Graded>& graded,
                                         const std::string& counted_tsv, const std::string& source);

/// One figure a lesson quotes by marker.
struct Figure {
  std::string name;    ///< The marker's NAME.
  double value = 0;    ///< What the lesson must show, rounded to the digits it prints.
  std::string source;  ///< Where `value` comes from, for the message.
  /// 0: the lesson prints `value` rounded to its digits. Above 0: a speed that varies from run
  /// to run; the lesson says "about" and prints a number within `tolerance` of `value`.
  double tolerance = 0;
};

/// The figures a lesson must quote, and the check that it quotes each one right.
class Figures {
 public:
  /// A figure with its value and where the value is from.
  void add(const std::string& name, double value, const std::string& source);
  /// A figure the lesson quotes as "about" its value: the printed number must lie within
  /// `tolerance` (above 0) of `value`.
  void about(const std::string& name, double value, const std::string& source, double tolerance);
  /// Measurement `quantity` of the committed H200 measurements of chapter file `file`
  /// (committed_measurements()); a missing file or quantity is one of the problems() found.
  void measured(const std::string& name, const std::string& file, const std::string& quantity);
  /// As measured(), for a speed that varies from run to run (a ratio the lesson quotes as
  /// "about 0.9"): the printed number must lie within `tolerance` of the committed value, so a
  /// rerun on the H200 does not break the lesson, and a stale or wrong number still does.
  void measured_about(const std::string& name, const std::string& file, const std::string& quantity,
                      double tolerance);
  /// The wavefronts the H200 measured for case `case_name` of the validator's committed run
  /// (tools/maintainer/measurements/h200/smem-cases.tsv); a missing case is one of the
  /// problems() found.
  void measured_case(const std::string& name, const std::string& case_name);
  /// "threshold.<name>": the threshold's value, exactly (the lesson's table of checks).
  void threshold(const grader::Threshold& t);

  /// Every problem with `lesson_text`: a marker with no number after it or a NAME not declared,
  /// a declared figure the lesson never quotes, a number that is not its value rounded to the
  /// digits printed (0.86 for 0.860, never 0.87). Empty when every figure is right.
  std::vector<std::string> problems(const std::string& lesson_text) const;
  /// The figures declared so far.
  const std::vector<Figure>& all() const { return figures_; }

 private:
  /// The figure `read()` gives; where it throws, a figure without its value, which problems()
  /// reports with what to do.
  void add_read(const std::string& name, const std::string& source,
                const std::function<double()>& read);
  std::vector<Figure> figures_;
  std::vector<std::string> missing_;  // measured figures whose value could not be read
};

/// Every speed `text` quotes without a <!--fig:NAME--> marker right before it (a number followed
/// by TFLOP/s, GB/s, "times as fast", "x as fast", "of copy", "of cuBLAS", ...), each as
/// "line N: ...": a measured figure typed by hand, which no check renews or holds to its file.
inline std::vector<std::string> unmarked_speeds(const std::string& text) {
  static const std::regex speed(
      R"((^|[^0-9A-Za-z_.>-])([0-9]+(\.[0-9]+)?)\s*(TFLOP/s|GFLOP/s|GB/s|TB/s|x as fast|x faster|)"
      R"(times as (fast|long)|% (faster|slower)|of (the )?(device )?(copy|cuBLAS)))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), speed);
       it != std::sregex_iterator(); ++it) {
    const auto at = static_cast<std::size_t>(it->position(2));
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
    out.push_back("line " + std::to_string(line) + ": " + (*it)[2].str() + " " + (*it)[4].str() +
                  " is quoted without a <!--fig:NAME--> marker");
  }
  return out;
}

}  // namespace lesson
