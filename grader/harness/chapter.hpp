/// @file chapter.hpp
/// @brief Which chapter a grader grades, as the build names it from the chapter's folder.
///
/// The top-level meson.build compiles every file of `grader/NN_slug/` with the chapter's
/// identity, taken from the folder name alone: for `06_padded_transpose` the id `ch06` (the
/// meson suite), the measurement file `ch06_padded_transpose`, and its thresholds header.
#pragma once

#if !defined(WORKBOOK_CHAPTER_ID) || !defined(WORKBOOK_CHAPTER_FOLDER)
#error \
    "grader/harness/chapter.hpp is for a chapter's checks: the build defines the chapter's identity"
#endif

namespace grader::chapter {

/// "ch06": the chapter's meson suite and the prefix of its measurement file.
inline constexpr const char* kId = WORKBOOK_CHAPTER_ID;
/// "06_padded_transpose": the chapter's folder in chapters/, solutions/ and grader/.
inline constexpr const char* kFolder = WORKBOOK_CHAPTER_FOLDER;
/// "ch06_padded_transpose": the file (without .tsv) the chapter's GPU checks write their
/// measurements to, under `<build>/measurements/` and, committed, `measurements/h200/`.
inline constexpr const char* kMeasurementFile = WORKBOOK_CHAPTER_MEASUREMENTS;

}  // namespace grader::chapter
