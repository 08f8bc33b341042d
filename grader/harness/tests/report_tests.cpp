// The compact report (grader/harness/report.hpp): what a student sees first of a grader's run.
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "grader/harness/catch.hpp"
#include "grader/harness/record.hpp"
#include "grader/harness/report.hpp"

namespace {

using grader::Feedback;
using grader::report::Outcome;
using grader::report::Recorder;

// A run of chapter "ch42" whose checks are recorded as Catch2 would report them.
Recorder chapter_run() {
  Recorder r;
  r.run().chapter = "ch42";
  r.run().mode = "host";
  r.run().variant = "variant 0 (self-study)";
  r.run().cases = "Graded on variant 0.\n  kOne (n = 1): float a[32]\n";
  r.run().details_path = "build/feedback/ch42_example_grader-host.txt";
  return r;
}

// The check `name` failing with `feedback` (attached first, as GRADER_EXPECT does).
void fail_with(Recorder& r, const Feedback& feedback) {
  r.attach(feedback);
  r.fail(feedback.headline(), {});
}

std::vector<std::string> rows_of(const std::string& text) {
  std::vector<std::string> rows;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    rows.push_back(text.substr(start, end - start));
  }
  return rows;
}

// The first `n` rows of a report, joined.
std::string first_rows(const std::string& text, std::size_t n) {
  const std::vector<std::string> rows = rows_of(text);
  std::string out;
  for (std::size_t i = 0; i < rows.size() && i < n; ++i) out += rows[i] + "\n";
  return out;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("report: text is wrapped to the width, at spaces, in characters", "[host][harness]") {
  const std::vector<std::string> rows =
      grader::report::wrap("one two three four five six", 12, "  ", "    ");
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == "  one two");
  CHECK(rows[1] == "    three");
  CHECK(rows[2] == "    four");
  CHECK(rows[3] == "    five six");  // 12 columns: a row may fill the width
  // A word longer than a row is cut where the row ends; a line break starts a row.
  const std::vector<std::string> cut = grader::report::wrap("abcdefghij\nk", 6, "", "");
  REQUIRE(cut.size() == 3);
  CHECK(cut[0] == "abcdef");
  CHECK(cut[1] == "ghij");
  CHECK(cut[2] == "k");
  // Columns are characters: "×" is one column, though two bytes.
  CHECK(grader::report::columns_of("4 × 4") == 5);
  CHECK(grader::report::wrap("4 × 4 × 4", 5, "", "").front() == "4 × 4");
}

TEST_CASE("report: the first line says whose checks, the variant and how many failed",
          "[host][harness]") {
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: first");
  fail_with(r, Feedback("first is wrong.").hint("look again."));
  r.end();
  r.start("ch42 exercise 2: second");
  r.end();
  r.start("ch42 exercise 3: third");
  r.skip("needs a GPU");
  r.end();
  const std::string report = grader::report::render(r.run());
  CHECK(rows_of(report).front() ==
        "ch42 host checks, variant 0 (self-study): 1 of 3 checks failed, 1 skipped.");
  // The closing summary: one line per check, then the counts and where the details are.
  CHECK(report.find("==== Summary (host checks) ====\n"
                    "  FAILED   ch42 exercise 1: first\n"
                    "  passed   ch42 exercise 2: second\n"
                    "  skipped  ch42 exercise 3: third\n"
                    "3 checks: 1 passed, 1 failed, 1 skipped.\n") != std::string::npos);
  CHECK(rows_of(report).back() == "  build/feedback/ch42_example_grader-host.txt");
  // The variant's cases come after the failures, not before them.
  CHECK(report.find("kOne (n = 1)") > report.find("first is wrong."));
  CHECK(report.find("SKIPPED ch42 exercise 3: third\n  why: needs a GPU\n") != std::string::npos);
}

TEST_CASE("report: a family of failed cases is its first case and a count", "[host][harness]") {
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: every pattern");
  for (int i = 0; i < 9; ++i) {
    fail_with(r, Feedback("pattern " + std::to_string(i) + " is wrong.")
                     .line("the pattern's addresses")
                     .hint("the same hint for all"));
  }
  r.end();
  r.start("ch42 exercise 2: every prediction");
  for (int i = 0; i < 2; ++i) fail_with(r, Feedback("prediction " + std::to_string(i) + "."));
  r.end();
  r.start("ch42 exercise 3: one case");
  fail_with(r, Feedback("the one case."));
  r.end();
  const std::string report = grader::report::render(r.run());
  CHECK(report.find("pattern 0 is wrong.") != std::string::npos);
  CHECK(report.find("pattern 1 is wrong.") == std::string::npos);
  CHECK(report.find("pattern 8 is wrong.") == std::string::npos);
  CHECK(count(report, "+ 8 more failed cases of this check.") == 1);
  CHECK(report.find("prediction 1.") == std::string::npos);
  CHECK(count(report, "+ 1 more failed case of this check.") == 1);
  CHECK(count(report, "more failed case") == 2);  // none for the check that failed once
  CHECK(count(report, "Hint: the same hint for all") == 1);
  CHECK(count(report, "FAILED ch42 exercise") == 3);
}

TEST_CASE("report: each distinct hint is shown once, where it first appears", "[host][harness]") {
  Recorder r = chapter_run();
  for (const char* name : {"ch42 exercise 1: a", "ch42 exercise 2: b", "ch42 exercise 3: c"}) {
    r.start(name);
    fail_with(r, Feedback(std::string(name) + " failed.")
                     .hint("make the layout check pass first.")
                     .hint(std::string("the hint of ") + name));
    r.end();
  }
  const std::string report = grader::report::render(r.run());
  CHECK(count(report, "make the layout check pass first.") == 1);
  CHECK(report.find("make the layout check pass first.") < report.find("ch42 exercise 2: b"));
  for (const char* name : {"ch42 exercise 1: a", "ch42 exercise 2: b", "ch42 exercise 3: c"}) {
    CHECK(count(report, std::string("the hint of ") + name) == 1);
  }
  // Told apart as text, whatever the line breaks: a hint wrapped differently is the same hint.
  Recorder wrapped = chapter_run();
  for (const char* hint :
       {"count the words, not the lanes.", "count the words,\n  not the lanes."}) {
    wrapped.start(std::string("ch42 check ") + hint[0]);
    fail_with(wrapped, Feedback("failed.").hint(hint));
    wrapped.end();
  }
  CHECK(count(grader::report::render(wrapped.run()), "Hint:") == 1);
}

TEST_CASE("report: the first failure, its reason and hint fit the first 80 x 24 screen",
          "[host][harness]") {
  Recorder r = chapter_run();
  r.start(
      "ch42 exercise 1: a check whose failure says a great deal, with a name long enough to "
      "take two rows");
  Feedback f(
      "a headline that is long enough to need more than one row of an eighty-column "
      "terminal to say what failed.");
  for (int i = 0; i < 40; ++i) f.line("line " + std::to_string(i) + " of the explanation.");
  fail_with(r, f.hint("the one thing to do."));
  r.end();
  const std::string report = grader::report::render(r.run());
  const std::string screen = first_rows(report, 24);
  CHECK(screen.find("FAILED ch42 exercise 1: a check whose failure") != std::string::npos);
  CHECK(screen.find("terminal to say what failed.") != std::string::npos);
  CHECK(screen.find("Hint: the one thing to do.") != std::string::npos);
  CHECK(screen.find("line 0 of the explanation.") != std::string::npos);
  CHECK(screen.find("(More of this failure is in the details file named at the end.)") !=
        std::string::npos);
  CHECK(report.find("line 39 of the explanation.") == std::string::npos);
  // Every row is wrapped, but for the closing summary's (one line per check, for tools).
  const std::string wrapped = report.substr(0, report.find("==== Summary"));
  for (const std::string& row : rows_of(wrapped)) CHECK(grader::report::columns_of(row) <= 80);
}

TEST_CASE("report: a picture on the first screen only where it fits; never after",
          "[host][harness]") {
  const std::string narrow = " bank 0 1 2 3\n w1   0 . 1 .\n";
  const std::string wide = " bank" + std::string(90, '.') + "\n";
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: narrow");
  fail_with(r, Feedback("narrow picture.").picture(narrow).hint("h1"));
  r.end();
  r.start("ch42 exercise 2: narrow again");
  fail_with(r, Feedback("narrow picture again.").picture(narrow).hint("h2"));
  r.end();
  const std::string report = grader::report::render(r.run());
  CHECK(count(report, narrow) == 1);  // in the first failure, not in the second
  CHECK(report.find(narrow) < report.find("narrow again"));

  Recorder w = chapter_run();
  w.start("ch42 exercise 1: wide");
  fail_with(w, Feedback("wide picture.").line("a fact").picture(wide).hint("h"));
  w.end();
  const std::string wide_report = grader::report::render(w.run());
  CHECK(wide_report.find(wide) == std::string::npos);
  CHECK(wide_report.find("a fact") != std::string::npos);
  CHECK(wide_report.find("(Its picture is in the details file named at the end.)") !=
        std::string::npos);
}

TEST_CASE("report: skipped checks with why, those of one reason together", "[host][harness]") {
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: crashes");
  r.fail("kernel k crashed (launched at x.cu:1): an illegal memory access", {});
  r.end();
  for (int i = 2; i <= 6; ++i) {
    r.start("ch42 exercise " + std::to_string(i) + ": later");
    r.skip("not run: the GPU context was lost when an earlier kernel crashed");
    r.end();
  }
  CHECK(r.advise("kernel k crashed", "find the bad access with compute-sanitizer."));
  CHECK_FALSE(r.advise("kernel z crashed", "nothing"));
  const std::string report = grader::report::render(r.run());
  CHECK(count(report, "why: not run: the GPU context was lost") == 1);
  CHECK(count(report, "SKIPPED ") == 2);
  CHECK(report.find("+ 3 more checks skipped for the same reason") != std::string::npos);
  CHECK(report.find("What to do: find the bad access with compute-sanitizer.") <
        report.find("SKIPPED"));
}

TEST_CASE("report: a run that stopped inside a check says so first", "[host][harness]") {
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: fine");
  fail_with(r, Feedback("an ordinary failure.").hint("an ordinary hint."));
  r.end();
  r.start("ch42 exercise 2: hangs");
  r.stop("This check did not finish within 240 s.", "look for a loop that never ends.");
  const std::string report = grader::report::render(r.run());
  std::string header = first_rows(report, 2);
  header.replace(header.find("\n  "), 3, " ");
  CHECK(header.find("2 of 2 checks failed; the grader stopped early.") != std::string::npos);
  CHECK(report.find("FAILED ch42 exercise 2: hangs\n  This check did not finish within 240 s.\n"
                    "  What to do: look for a loop that never ends.") != std::string::npos);
  CHECK(report.find("ch42 exercise 2: hangs") < report.find("ch42 exercise 1: fine"));
  CHECK(report.find("2 checks: 0 passed, 2 failed, 0 skipped.") != std::string::npos);
}

TEST_CASE("report: a failure without a Feedback keeps Catch2's message and context",
          "[host][harness]") {
  Recorder r = chapter_run();
  r.start("ch42 exercise 1: plain");
  r.attach(Feedback("another headline.").line("not this one's"));
  r.fail("CHECK( wrong == 0 )", {"case 7", "with expansion: 3 == 0"});
  r.end();
  const grader::report::Check& c = r.run().checks.front();
  CHECK(c.outcome == Outcome::kFailed);
  CHECK(c.first.headline == "CHECK( wrong == 0 )");
  REQUIRE(c.first.parts.size() == 2);
  CHECK(c.first.parts[0].text == "case 7");
  CHECK(grader::report::render(r.run()).find("not this one's") == std::string::npos);
}

TEST_CASE("report: the note on how to see the answer is shown once", "[host][harness]") {
  unsetenv("WORKBOOK_REVEAL");
  Recorder r = chapter_run();
  for (const char* name : {"ch42 exercise 1: a", "ch42 exercise 2: b"}) {
    r.start(name);
    fail_with(r, Feedback(std::string(name) + " is too low.").hint(name).reveal("it is 4"));
    r.end();
  }
  const std::string report = grader::report::render(r.run());
  CHECK(count(report, "WORKBOOK_REVEAL=1") == 1);
  CHECK(report.find("it is 4") == std::string::npos);
  setenv("WORKBOOK_REVEAL", "1", 1);  // revealed, the answer is shown, and no note
  Recorder revealed = chapter_run();
  revealed.start("ch42 exercise 1: a");
  fail_with(revealed, Feedback("a is too low.").hint("h").reveal("it is 4"));
  revealed.end();
  const std::string revealed_report = grader::report::render(revealed.run());
  unsetenv("WORKBOOK_REVEAL");
  CHECK(revealed_report.find("  it is 4\n") != std::string::npos);
  CHECK(revealed_report.find("WORKBOOK_REVEAL=1") == std::string::npos);
}

TEST_CASE("record: a run read back from its record renders as the run itself", "[host][harness]") {
  Recorder r = chapter_run();
  r.run().setting.push_back("GPU checks on a test GPU");
  r.start("ch42 exercise 1: \"quoted\" \\ and \t odd \xff bytes");
  fail_with(r, Feedback("caf\xc3\xa9.").line("a line").picture(" a\n b\n").hint("h"));
  r.fail("a second case", {});
  r.end();
  r.start("ch42 exercise 2: skipped");
  r.skip("not run: no GPU");
  r.end();
  r.start("ch42 exercise 3: stops");
  r.stop("Your code called exit().", "return instead.");
  std::stringstream record;
  record << grader::record::header_line(r.run())
         << grader::record::setting_line("random inputs from seed 7")
         << grader::record::check_line(r.run().checks[0])
         << grader::record::check_line(r.run().checks[1])
         << grader::record::end_line("exit", &r.run().checks[2]);
  r.run().setting.push_back("random inputs from seed 7");
  const grader::report::Run read = grader::record::read(record);
  REQUIRE(read.checks.size() == 3);
  CHECK(read.checks[0].name == r.run().checks[0].name);
  CHECK(grader::report::render(read) == grader::report::render(r.run()));
  std::stringstream escaped("{\"record\": 1, \"chapter\": \"\\u00e9\\u20ac\\n\"}\n");
  CHECK(grader::record::read(escaped).chapter == "\xc3\xa9\xe2\x82\xac\n");
  std::stringstream bad("{\"record\": 1}\n{\"check\": \"x\", \"outcome\": \"won\"}\n");
  CHECK_THROWS_WITH(grader::record::read(bad), GRADER_CONTAINS("line 2"));
}
