/// @file lesson_checks.hpp
/// @brief What a chapter's lesson_checks.cpp uses: the lesson's text and figures (lesson_text.hpp)
/// and the chapter's identity, thresholds (chapter.hpp) and variants (variant.hpp), with Catch2.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/model/bank_model.hpp"
#include "common/model/case_file.hpp"
#include "grader/harness/answer_digest.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/lesson_text.hpp"
#include "grader/harness/variant.hpp"

namespace lesson {

/// `text` with the number after each <!--fig:NAME--> marker of a figure of `figures` that has a
/// value replaced by that value, to as many decimals as the lesson printed.
inline std::string renewed_figures(const Figures& figures, const std::string& text) {
  static const std::regex marker(R"(<!--fig:([A-Za-z0-9_.]+)-->(-?[0-9]+(\.[0-9]+)?))");
  std::string out;
  std::size_t copied = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), marker);
       it != std::sregex_iterator(); ++it) {
    for (const Figure& f : figures.all()) {
      if (f.name != (*it)[1] || std::isnan(f.value)) continue;
      const std::string printed = (*it)[2];
      const std::size_t point = printed.find('.');
      const int decimals =
          point == std::string::npos ? 0 : static_cast<int>(printed.size() - point - 1);
      char number[64];
      std::snprintf(number, sizeof number, "%.*f", decimals, f.value);
      const std::size_t at = static_cast<std::size_t>(it->position(2));
      out += text.substr(copied, at - copied) + number;
      copied = at + printed.size();
    }
  }
  return out + text.substr(copied);
}

/// Fails the running check once for every problem `figures` finds in the lesson `text`; in a
/// chapter that awaits its first GPU run, a measured figure without its value is said, not failed.
/// With WORKBOOK_RENEW_FIGURES=1 (tools/maintainer/run_gpu_suite.sh, after it commits a run's
/// measurements) it first writes the lesson with its figures renewed (renewed_figures) and checks
/// that: a renewed measurement renews the prose.
inline void check_figures(const Figures& figures, std::string text) {
  const char* renew = std::getenv("WORKBOOK_RENEW_FIGURES");
  if (renew != nullptr && std::string(renew) == "1") {
    // The file as it is now: another check of this lesson may have renewed its own figures.
    const std::string path = std::string("chapters/") + grader::chapter::kFolder + "/README.md";
    text = renewed_figures(figures, read_source_file(path));
    std::ofstream(std::string(WORKBOOK_SOURCE_ROOT) + "/" + path, std::ios::binary) << text;
  }
  const bool awaiting = awaits_first_gpu_run(grader::chapter::kMeasurementFile);
  for (const std::string& problem : figures.problems(text)) {
    if (awaiting && problem.find(" has no value: ") != std::string::npos) {
      WARN(first_gpu_run_note(grader::chapter::kMeasurementFile) << ": " << problem);
    } else {
      FAIL_CHECK(problem);
    }
  }
}

/// With the environment variable WORKBOOK_WRITE_GRADED_REQUESTS naming a file, appends the
/// requests of `graded` to it as case-file lines named after the chapter, after a comment line
/// that says how many there are (tools/maintainer/make_counted_cases.py reads them, to leave
/// them out of the bank model in the browser's H200 cases).
inline void write_graded_requests(const std::vector<Graded>& graded) {
  const char* path = std::getenv("WORKBOOK_WRITE_GRADED_REQUESTS");
  if (path == nullptr || *path == '\0') return;
  std::ofstream out(path, std::ios::app);
  std::size_t count = 0;
  for (const Graded& g : graded) count += g.requests.size();
  out << "# " << grader::chapter::kId << ": " << count << " graded requests\n";
  for (const Graded& g : graded) {
    for (const smem::WarpRequest& r : g.requests) {
      out << smem::format_case(smem::SmemCase{grader::chapter::kId, r, {}, {}, 0}) << "\n";
    }
  }
  if (!out) FAIL_CHECK("cannot write the graded requests to " << path);
}

/// Fails the running check once for every graded answer the lesson `text` gives away: a phrase,
/// a picture, or an analyser example of the lesson or of its figure list that draws a graded
/// request (or that cannot be drawn as written); and once for every case of the bank model in
/// the browser's H200 cases (kBrowserCountedCases, which the hand-out ships) that asks the same
/// question as a graded request, whose answer the page would show as counted on the H200.
inline void check_not_printed(const std::vector<Graded>& graded, const std::string& text) {
  CHECK(!graded.empty());         // a chapter with graded answers lists them
  write_graded_requests(graded);  // first: a counted file that cannot be read stops what follows
  const std::string figures = read_source_file(std::string("chapters/") + grader::chapter::kFolder +
                                               "/figures/figures.tsv");
  for (const std::string& problem : printed_answers(text, graded, figures)) FAIL_CHECK(problem);
  for (const std::string& problem :
       counted_answers(graded, read_source_file(kBrowserCountedCases), kBrowserCountedCases)) {
    FAIL_CHECK(problem);
  }
}

/// Fails the running check once for every line of the code the lesson `text` quotes (its
/// ```cpp blocks) that is not a line of the chapter's exercise file as shipped
/// (chapters/<folder>/<file>): the lesson shows the student's own code, which cannot drift.
inline void check_quoted_code(const std::string& text, const std::string& file) {
  const std::string code =
      read_source_file(std::string("chapters/") + grader::chapter::kFolder + "/" + file);
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

/// A typical wrong answer of a digested case: the slip's name, and its values under the case's
/// name (the host check compares the student's values with it to name the principle missed).
struct Slip {
  std::string slip;                ///< "xor_with_box_row"
  grader::DigestCase case_values;  ///< The case's name, and the values the slip gives.
};

/// The answer key's check: the chapter's committed digests (`committed`, its
/// answer_digests.hpp) are those of the reference solution's values `right` and of the typical
/// slips `slips`, which must all differ from the right values. With the environment variable
/// WORKBOOK_WRITE_ANSWER_DIGESTS set (ninja -C <build> answer-digests), it writes the file
/// instead.
inline void check_answer_digests(const std::vector<grader::DigestCase>& right,
                                 const std::vector<Slip>& slips,
                                 const std::vector<grader::AnswerDigest>& committed) {
  std::vector<std::pair<std::string, std::uint64_t>> table;
  for (const grader::DigestCase& c : right) {
    table.emplace_back(c.name, grader::digest_of(c.name, c.values));
  }
  for (const Slip& s : slips) {
    const std::uint64_t d = grader::digest_of(s.case_values.name, s.case_values.values);
    for (const grader::DigestCase& c : right) {
      if (c.name == s.case_values.name) {
        INFO("slip " << s.slip << " of " << c.name);
        CHECK(c.values != s.case_values.values);  // a slip that is right would be misreported
      }
    }
    table.emplace_back(s.case_values.name + "#" + s.slip, d);
  }
  const std::string path = std::string(WORKBOOK_SOURCE_ROOT) + "/grader/" +
                           grader::chapter::kFolder + "/answer_digests.hpp";
  const char* write = std::getenv("WORKBOOK_WRITE_ANSWER_DIGESTS");
  if (write != nullptr && *write != '\0') {
    std::ofstream(path) << grader::answer_digest_header(grader::chapter::kFolder, table);
    WARN("wrote " << path);
    return;
  }
  std::vector<std::pair<std::string, std::uint64_t>> have;
  for (const grader::AnswerDigest& d : committed) have.emplace_back(d.name, d.value);
  INFO(path << " is not the reference's: regenerate it with ninja -C <build> answer-digests");
  CHECK(have == table);
}

/// The variants a lesson is held apart from: `first` (variant 0, where a check asks it too),
/// both range ends, and class variants 1..2000.
inline std::vector<grader::variant::Identity> class_variants(
    std::vector<grader::variant::Identity> first = {}) {
  for (const char* end : {"lowest", "highest"}) first.push_back(grader::variant::of(end));
  for (std::uint32_t id = 1; id <= 2000; ++id) {
    first.push_back({grader::variant::Kind::kStudent, id, "", "test"});
  }
  return first;
}

/// Two requests are one access when they are the same instruction at the same addresses, or at
/// addresses that differ by one whole number of 128-byte rows of banks (the same picture): what
/// a lesson check asks of a variant's request against the lesson's own examples.
inline bool same_access(const smem::WarpRequest& a, const smem::WarpRequest& b) {
  if (a.width_bytes != b.width_bytes || a.op != b.op) return false;
  const std::int64_t shift = b.address[0] - a.address[0];
  if (shift % 128 != 0) return false;
  for (int t = 0; t < smem::kWarpSize; ++t) {
    if (b.address[t] - a.address[t] != shift) return false;
  }
  return true;
}

}  // namespace lesson

// The names every chapter's lesson checks use unqualified.
using grader::chapter::kMeasurementFile;
using grader::chapter::threshold;
using smem::Op;
using smem::WarpRequest;
