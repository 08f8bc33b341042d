// Case files: the format, and the errors that name the line.
#include <sstream>
#include <string>

#include "common/model/case_file.hpp"
#include "grader/harness/catch.hpp"

namespace {

std::string addresses(const std::string& first, int stride) {
  std::string text = first;
  for (int t = 1; t < 32; ++t) {
    text += ' ';
    text += std::to_string(stride * t);  // not " " + ...: gcc 12 -Wrestrict misfires on it
  }
  return text;
}

std::vector<smem::SmemCase> read(const std::string& text) {
  std::istringstream in(text);
  return smem::read_cases(in, "cases.tsv");
}

}  // namespace

TEST_CASE("case files: with and without measured costs", "[host][case_file]") {
  const auto cases =
      read("# comment\n\ns2\t4\tload\t2\t1\t" + addresses("0", 8) + "\n" + "open 8 store - - " +
           addresses("0", 8) + "\n" + "bare 16 ldmatrix.x1 " + addresses("0", 16) + "\n");
  REQUIRE(cases.size() == 3);
  CHECK(cases[0].name == "s2");
  CHECK(cases[0].line == 3);
  CHECK(cases[0].wavefronts == 2);
  CHECK(cases[0].conflicts == 1);
  CHECK(cases[1].request.op == smem::Op::kStore);
  CHECK_FALSE(cases[1].wavefronts.has_value());
  CHECK(cases[2].request.op == smem::Op::kLdmatrix);
  CHECK(cases[2].request.matrices == 1);
  CHECK(smem::format_case(cases[0]) == "s2\t4\tload\t2\t1\t" + addresses("0", 8));
  CHECK(smem::format_case(cases[1]).rfind("open\t8\tstore\t-\t-\t0 8 16", 0) == 0);
}

TEST_CASE("case files: malformed lines are refused with their line number", "[host][case_file]") {
  CHECK_THROWS_WITH(read("a 4 load 1 0 1 2 3\n"),
                    GRADER_CONTAINS("cases.tsv:1: 8 fields; a case has name, width, op"));
  CHECK_THROWS_WITH(read("\na four load " + addresses("0", 4)),
                    GRADER_CONTAINS("cases.tsv:2: width 'four' is not a number"));
  CHECK_THROWS_WITH(read("a 4 fetch " + addresses("0", 4)),
                    GRADER_CONTAINS("cases.tsv:1: case a: operation 'fetch' is not one of"));
  CHECK_THROWS_WITH(read("a 4 load x 0 " + addresses("0", 4)),
                    GRADER_CONTAINS("wavefronts 'x' is not a count"));
  CHECK_THROWS_WITH(read("a 4 load " + addresses("zero", 4)),
                    GRADER_CONTAINS("address of lane 0 'zero' is not a whole number"));
  CHECK_THROWS_WITH(read("a 4 load " + addresses("2", 4)),
                    GRADER_CONTAINS("lane 0: address 2 is not aligned"));
  CHECK_THROWS_WITH(smem::read_case_file("/nonexistent/cases.tsv"),
                    GRADER_CONTAINS("cannot open the case file"));
}
