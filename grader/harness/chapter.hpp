/// @file chapter.hpp
/// @brief Which chapter a grader grades, as the build names it from the chapter's folder.
///
/// The top-level meson.build compiles every file of `grader/NN_slug/` with the chapter's
/// identity, taken from the folder name `NN_slug` alone: the id `chNN` (the meson suite), the
/// measurement file `chNN_slug`, and its thresholds header `grader/NN_slug/thresholds.hpp`,
/// whose table this header includes and searches.
#pragma once

#if !defined(WORKBOOK_CHAPTER_ID) || !defined(WORKBOOK_CHAPTER_FOLDER) || \
    !defined(WORKBOOK_CHAPTER_THRESHOLDS)
#error \
    "grader/harness/chapter.hpp is for a chapter's checks: the build defines the chapter's identity"
#endif

#include WORKBOOK_CHAPTER_THRESHOLDS  // grader/NN_slug/thresholds.hpp: kThresholds

namespace grader::chapter {

/// "chNN": the chapter's meson suite and the prefix of its measurement file.
inline constexpr const char* kId = WORKBOOK_CHAPTER_ID;
/// "NN_slug": the chapter's folder in chapters/, solutions/ and grader/.
inline constexpr const char* kFolder = WORKBOOK_CHAPTER_FOLDER;
/// "chNN_slug": the file (without .tsv) the chapter's GPU checks write their
/// measurements to, under `<build>/measurements/` (the H200's, committed, are the instructors':
/// `solutions/NN_slug/measurements/h200.tsv`).
inline constexpr const char* kMeasurementFile = WORKBOOK_CHAPTER_MEASUREMENTS;

/// The chapter's threshold named `name`; throws std::out_of_range naming it when the chapter's
/// thresholds.hpp has none.
inline const Threshold& threshold(const char* name) {
  return find_threshold(kThresholds, name);
}

}  // namespace grader::chapter
