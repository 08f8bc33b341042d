/// @file chapter.hpp
/// @brief Which chapter a grader grades, and its manifest's thresholds and checks.
///
/// The top-level meson.build compiles every file of `grader/NN_slug/` with the chapter's
/// identity, taken from the folder name `NN_slug`: the id `chNN` (the meson suite), the
/// measurement file `chNN_slug`, and the header `chNN_manifest.hpp` that
/// grader/tools/manifest_views.py makes from the chapter's manifests (grader/NN_slug/chapter.ini,
/// and solutions/NN_slug/chapter.ini where the tree has it): the thresholds, and the name and tags
/// of each check.
#pragma once

#if !defined(WORKBOOK_CHAPTER_ID) || !defined(WORKBOOK_CHAPTER_FOLDER) || \
    !defined(WORKBOOK_CHAPTER_MANIFEST)
#error \
    "grader/harness/chapter.hpp is for a chapter's checks: the build defines the chapter's identity"
#endif

#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>

#include "common/counters/source_counters.hpp"
#include "common/cuda/kernel_module.hpp"
#include "grader/harness/feedback_message.hpp"
#include "grader/harness/threshold.hpp"

namespace grader::chapter {

/// A check of the chapter's manifest: its name as the grader reports it, and its Catch2 tags
/// (its mode, and [variant] where it draws from the student's variant).
struct CheckItem {
  const char* name;
  const char* tags;
};

}  // namespace grader::chapter

#include WORKBOOK_CHAPTER_MANIFEST  // chNN_manifest.hpp: kThresholds, checks::ID

/// Registers check ID of the chapter's manifest (a Catch2 test case of its name and tags):
/// `WORKBOOK_CHECK(ex1) { ... }`.
#define WORKBOOK_CHECK(id) \
  TEST_CASE(::grader::chapter::checks::id.name, ::grader::chapter::checks::id.tags)

namespace grader::chapter {

/// "chNN": the chapter's meson suite and the prefix of its measurement file.
inline constexpr const char* kId = WORKBOOK_CHAPTER_ID;
/// "NN_slug": the chapter's folder in chapters/, solutions/ and grader/.
inline constexpr const char* kFolder = WORKBOOK_CHAPTER_FOLDER;
/// "chNN_slug": the file (without .tsv) the chapter's GPU checks write their
/// measurements to, under `<build>/measurements/` (the H200's, committed, are the instructors':
/// `solutions/NN_slug/measurements/h200.tsv`).
inline constexpr const char* kMeasurementFile = WORKBOOK_CHAPTER_MEASUREMENTS;

/// `launch` (one kernel launch) line by line, or why not (gpu::shared_lines_or_why): what a
/// counters check shows. The source lines are read from the chapter's kernels built for the
/// device alone, with -lineinfo: the file the judge loaded them from (the submission's, in
/// official grading), else `chNN_slug_kernels.fatbin` beside the grader (meson.build's
/// kernels_name); the files it may print are the hand-out's chapters, grader and common code in
/// the tree the grader was built from (a student's `#line` may name any file).
inline std::string lines_of(const std::function<void()>& launch) {
  const std::string root = WORKBOOK_SOURCE_ROOT;
  return gpu::shared_lines_or_why(
      launch,
      gpu::kernel_module_path().empty()
          ? gpu::beside_this_program(std::string(kMeasurementFile) + "_kernels.fatbin")
          : gpu::kernel_module_path(),
      {root + "/chapters", root + "/grader", root + "/common"});
}

/// With WORKBOOK_LINES=1 in the environment, a counters check prints its kernel line by line even
/// when it passes: the view a failure shows (`lines` renders it, gpu::shared_lines_or_why), on
/// demand. Where the counts are the answers of graded predictions (`gives_answers`), only a
/// reveal shows them; an exam never.
inline void show_lines_if_asked(const std::function<std::string()>& lines,
                                bool gives_answers = false) {
  const char* asked = std::getenv("WORKBOOK_LINES");
  if (asked == nullptr || *asked == '\0' || std::string(asked) == "0") return;
  const FeedbackMode mode = feedback_mode();
  if (mode == FeedbackMode::kExam) return;
  if (gives_answers && mode != FeedbackMode::kReveal) {
    std::cout << "(WORKBOOK_LINES: this check grades your predictions, so its counts are the "
                 "answers: WORKBOOK_REVEAL=1 shows them.)\n";
    return;
  }
  std::cout << lines();
}

/// The chapter's threshold named `name`; throws std::out_of_range naming it when the chapter's
/// manifest has none.
inline const Threshold& threshold(const char* name) {
  return find_threshold(kThresholds, name);
}

}  // namespace grader::chapter
