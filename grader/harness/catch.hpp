/// @file catch.hpp
/// @brief The one place that knows whether Catch2 is v2 (single header) or v3.
#pragma once

#if defined(__CUDACC__)
#error \
    "Catch2 in a CUDA translation unit: keep checks in .cpp files (feedback_message.hpp is CUDA-safe)"
#endif

#include <string>

namespace grader {
/// Notes why the running test case is skipped, for the grader's closing summary.
void note_skip(const std::string& reason);
}  // namespace grader

#if defined(WORKBOOK_CATCH2_V3)
#include <catch2/catch_all.hpp>
/// Marks the running test as skipped (Catch2 v3), with the reason.
#define GRADER_SKIP(reason)                   \
  do {                                        \
    ::grader::note_skip(std::string(reason)); \
    SKIP(reason);                             \
  } while (0)
/// Matches a string that contains `text`.
#define GRADER_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
using Catch::Approx;
#else
#include <catch2/catch.hpp>
/// Matches a string that contains `text`.
#define GRADER_CONTAINS(text) Catch::Matchers::Contains(text)
/// Catch2 v2 has no SKIP: note the reason (the run's record holds the skip) and leave the test,
/// with a warning that starts with "SKIP: " for the whole report.
#define GRADER_SKIP(reason)                   \
  do {                                        \
    ::grader::note_skip(std::string(reason)); \
    WARN("SKIP: " << (reason));               \
    return;                                   \
  } while (0)
#endif
