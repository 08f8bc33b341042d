/// @file exercise_source.hpp
/// @brief The text of the exercise file under grade, for checks that must read the code itself.
#pragma once

#include <string>

namespace grader {

/// The exercise file the grader was built from, as text (grader/tools/make_grader_unit.py puts
/// it in the grader's translation unit).
const char* exercise_source();

/// `source` without its comments (`// ...` to the end of the line, and `/* ... */`), string and
/// character literals kept as they are.
inline std::string without_comments(const std::string& source) {
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '"' || c == '\'') {  // a literal, copied whole
      const std::size_t start = i++;
      while (i < source.size() && source[i] != c) i += source[i] == '\\' ? 2 : 1;
      out += source.substr(start, i - start + 1);
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      i = source.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace grader
