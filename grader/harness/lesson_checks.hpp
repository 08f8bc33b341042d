/// @file lesson_checks.hpp
/// @brief What a chapter's lesson_checks.cpp uses: the lesson's text and figures (lesson_text.hpp)
/// and the chapter's identity and thresholds (chapter.hpp), with Catch2.
#pragma once

#include <string>
#include <vector>

#include "grader/harness/catch.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/lesson_text.hpp"

namespace lesson {

/// Fails the running check once for every problem `figures` finds in the lesson `text`.
inline void check_figures(const Figures& figures, const std::string& text) {
  for (const std::string& problem : figures.problems(text)) FAIL_CHECK(problem);
}

/// Fails the running check once for every graded answer the lesson `text` gives away.
inline void check_not_printed(const std::vector<Graded>& graded, const std::string& text) {
  CHECK(!graded.empty());  // a chapter with graded answers lists them
  for (const std::string& problem : printed_answers(text, graded)) FAIL_CHECK(problem);
}

}  // namespace lesson
