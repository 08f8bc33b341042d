/// @file variant.hpp
/// @brief The workbook's variant: which graded cases this student answers.
///
/// A class hand-out carries a variant id (the file `VARIANT` at the workbook's root, written by
/// tools/instructor/make_handout.py from the roster and the course secret). Every chapter draws
/// its graded cases from it (a Draw per chapter), so that two students answer different
/// questions of the same kind. Variant 0 is self-study: the workbook's own cases, the same for
/// everyone. The plain loop a Draw replaces, for a chapter that grades one stride:
///
///     int stride = 8;                       // variant 0: the committed case
///     if (!self_study) stride = 2 + rng() % 15;  // a class variant: its own stride
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace grader::variant {

/// The self-study variant: the workbook's committed cases.
inline constexpr std::uint32_t kSelfStudy = 0;
/// The largest variant id a hand-out can carry.
inline constexpr std::uint32_t kLargest = 999999999;

/// What kind of variant a run grades.
enum class Kind {
  kSelfStudy,  ///< variant 0: the committed cases
  kStudent,    ///< a class variant 1..kLargest
  kLowest,     ///< maintainers: every range at its low end (WORKBOOK_VARIANT=lowest)
  kHighest,    ///< maintainers: every range at its high end (WORKBOOK_VARIANT=highest)
};

/// The variant of a run and where it came from.
struct Identity {
  Kind kind = Kind::kSelfStudy;
  std::uint32_t id = kSelfStudy;  ///< 0 for self-study and for the two range ends
  std::string student;            ///< whose workbook (empty for self-study)
  std::string source;             ///< where it was read: "WORKBOOK_VARIANT", "VARIANT", "default"

  bool self_study() const { return kind == Kind::kSelfStudy; }
  /// "variant 123456789 (alice's workbook)", "variant 0 (self-study: ...)", ...
  std::string describe() const;
  /// The same in a few words: "variant 0 (self-study)", "variant 123456789 (alice's)", ...
  std::string brief() const;
};

/// The variant of this run: the environment's WORKBOOK_VARIANT when set (official grading sets
/// it from the roster; maintainers' tests set `lowest` and `highest`), else the hand-out's
/// VARIANT file as the build read it, else 0. A bad WORKBOOK_VARIANT ends the program with a
/// message naming it (exit 2), before any check runs.
const Identity& current();

/// The variant `text` names, for tests and tools (throws std::invalid_argument naming it).
Identity of(const std::string& text);

/// A chapter's draws from a variant: the same variant and chapter give the same sequence, and
/// chapters draw independently. At self-study a chapter uses its committed cases and does not
/// draw; at `lowest`/`highest` every draw is its range's low/high end.
class Draw {
 public:
  Draw(const Identity& v, const std::string& chapter);
  /// A student variant's draws from `seed` (fresh_draw).
  Draw(std::uint64_t seed, const std::string& chapter);

  bool self_study() const { return kind_ == Kind::kSelfStudy; }
  /// An integer in [lo, hi].
  int between(int lo, int hi);
  /// One of `choices` (the first at lowest, the last at highest).
  template <typename T>
  T pick(const std::vector<T>& choices) {
    return choices.at(index(choices.size()));
  }
  /// `count` distinct elements of `choices`, in the order they have there (lowest: the first
  /// `count`, highest: the last `count`).
  template <typename T>
  std::vector<T> some(const std::vector<T>& choices, std::size_t count) {
    std::vector<T> out;
    for (std::size_t i : subset(choices.size(), count)) out.push_back(choices[i]);
    return out;
  }
  /// 64 random bits (not for ranges: use between()).
  std::uint64_t next();

 private:
  std::size_t index(std::size_t n);
  std::vector<std::size_t> subset(std::size_t n, std::size_t count);
  Kind kind_;
  std::uint64_t state_;
};

/// The draw of the fresh cases a rule is graded on besides its variant's: a prediction written as
/// a function of its case passes only as a rule, never as a table of the numbers a run showed.
/// Official grading draws them from its hidden seed (WORKBOOK_HIDDEN_SEED, drawn at each grading
/// and shown nowhere); a local run from its own seed (printed; WORKBOOK_SEED replays it).
Draw fresh_draw(const std::string& chapter);

/// One graded case of a chapter for the run's variant, as `<grader> cases` lists it.
struct GradedCase {
  std::string check;  ///< the TEST_CASE that grades it
  std::string text;   ///< the case in words, e.g. "stride 6 of 4-byte elements"
  /// For a prediction (a number the exercise returns): the exercise function's declaration,
  /// e.g. "int predicted_wavefronts(chNN::Pattern p)", the case's arguments as a C++ condition
  /// on its parameters, e.g. "p == chNN::Pattern::kStride", and the exercise's value. Empty for
  /// a case that is not a prediction (a layout or a kernel shape).
  std::string declaration;
  std::string condition;
  std::function<long long()> answer;
};

/// What a chapter tells about its variant: a summary for the student (the grader prints it
/// first: "your stride is 6 floats") and the full list of graded cases.
struct ChapterCases {
  std::function<std::string(const Identity&)> summary;
  std::function<std::vector<GradedCase>(const Identity&)> cases;
};

/// Registers a chapter's cases: one static Registration in grader/NN_slug/variant_cases.cpp.
struct Registration {
  explicit Registration(ChapterCases cases);
};

/// The chapter's registration, or nullptr where the chapter has none (it does not vary).
const ChapterCases* registered();

/// Writes `<grader> cases`: the run's variant, then each graded case of the registered chapter,
/// one a line, tab-separated (check, case, declaration, condition, answer). Returns 0.
int list_cases(std::ostream& out);

/// The grader's first lines: whose variant this is, and what it means in this chapter.
std::string graded_on_text();

}  // namespace grader::variant
