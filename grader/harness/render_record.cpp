// `render_record [RECORD]`: the compact report of a grader's run (grader/harness/report.hpp)
// from the run's record (grader/harness/record.hpp; standard input without RECORD), as the
// grader printed it. Class grading shows it in each submission's report.md.
#include <fstream>
#include <iostream>

#include "grader/harness/record.hpp"
#include "grader/harness/report.hpp"

int main(int argc, char** argv) {
  if (argc > 2) {
    std::cerr << "usage: " << argv[0] << " [RECORD]\n";
    return 2;
  }
  std::ifstream file;
  if (argc == 2) file.open(argv[1], std::ios::binary);
  if (argc == 2 && !file) {
    std::cerr << argv[0] << ": cannot read " << argv[1] << "\n";
    return 2;
  }
  try {
    std::cout << grader::report::render(grader::record::read(argc == 2 ? file : std::cin));
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
