/// @file lesson_checks.hpp
/// @brief What a chapter's lesson_checks.cpp uses: the lesson's text and figures (lesson_text.hpp)
/// and the chapter's identity and thresholds (chapter.hpp), with Catch2.
#pragma once

#include <fstream>
#include <sstream>
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

/// Fails the running check once for every line of the code the lesson `text` quotes (its
/// ```cpp blocks) that is not a line of the chapter's exercise file as shipped
/// (chapters/<folder>/<file>): the lesson shows the student's own code, which cannot drift.
inline void check_quoted_code(const std::string& text, const std::string& file) {
  std::ifstream in(std::string(WORKBOOK_SOURCE_ROOT) + "/chapters/" + grader::chapter::kFolder +
                   "/" + file);
  std::ostringstream read;
  read << in.rdbuf();
  const std::string code = read.str();
  REQUIRE(!code.empty());
  std::istringstream lines(text);
  std::string line;
  bool in_code = false;
  int quoted = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("```", 0) == 0) {
      in_code = line == "```cpp";
      continue;
    }
    if (!in_code || line.find_first_not_of(' ') == std::string::npos) continue;
    ++quoted;
    if (code.find(line) == std::string::npos) {
      FAIL_CHECK("the lesson quotes a line that " + file + " does not hold: " + line);
    }
  }
  CHECK(quoted > 0);  // a lesson that calls this quotes some code
}

}  // namespace lesson
