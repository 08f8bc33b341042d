// The host side of the line-by-line view (common/counters/source_counters.hpp) on a chapter's
// reference: the lines of the reference's exercise file that carry a `bank model:` comment, each
// with the machine instructions the -lineinfo build placed on it and the bank model's figure for
// the comment's request. No GPU: the cubins are read from the fatbins the build made.
//
//   reference_lines NAMESPACE EXERCISE.cu FATBIN [FATBIN ...]
//
// Prints the table; exits 1 when the file has no such comment, a comment is no request, a
// commented line holds no instruction of any of the namespace's kernels in any cubin (the
// comment sits on a line the kernels do not run), or a request takes more wavefronts than its
// ideal (the references are conflict-free by their contracts).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/counters/source_counters.hpp"
#include "common/model/bank_model.hpp"

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The mangled names in a cubin's string tables of functions in namespace `space`.
std::set<std::string> functions_in(const std::string& cubin, const std::string& space) {
  const std::string prefix = "_ZN" + std::to_string(space.size()) + space;
  std::set<std::string> names;
  for (std::size_t at = cubin.find(prefix); at != std::string::npos;
       at = cubin.find(prefix, at + 1)) {
    if (at > 0 && cubin[at - 1] != '\0' && cubin[at - 1] != '.') continue;
    names.insert(cubin.substr(at, cubin.find('\0', at) - at));
  }
  return names;
}

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: reference_lines NAMESPACE EXERCISE.cu FATBIN [FATBIN ...]\n");
    return 2;
  }
  try {
    const std::string space = argv[1], exercise = argv[2];
    std::vector<std::string> lines;
    {
      std::ifstream in(exercise);
      if (!in) throw std::runtime_error(exercise + ": cannot be read");
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    // Instructions per line of the exercise, over every kernel of every cubin.
    std::map<int, int> instructions;
    int cubins = 0;
    for (int f = 3; f < argc; ++f) {
      for (const std::string& cubin : gpu::cubins_in(file_bytes(argv[f]))) {
        ++cubins;
        for (const std::string& function : functions_in(cubin, space)) {
          int misses = 0;
          for (std::uint32_t pc = 0; misses < 64; pc += 16) {
            const auto place = gpu::source_place(cubin, function, pc);
            misses = place ? 0 : misses + 1;
            if (!place) continue;
            if (base_name(place->file) == base_name(exercise)) ++instructions[place->line];
          }
        }
      }
    }
    if (cubins == 0) throw std::runtime_error("no uncompressed cubin in the fatbins given");
    int commented = 0, faults = 0;
    std::printf(
        "%s: the lines a `bank model:` comment describes (instructions: the SASS "
        "instructions placed on the line, in %d cubins)\n",
        base_name(exercise).c_str(), cubins);
    std::printf("  %-6s %13s %11s %6s  source\n", "line", "instructions", "wavefronts", "ideal");
    for (int line = 1; line <= static_cast<int>(lines.size()); ++line) {
      const std::string comment = gpu::bank_model_comment(lines, line);
      const std::string& text = lines[static_cast<std::size_t>(line - 1)];
      // A comment line describes the line below it, not itself.
      if (comment.empty() || text.find_first_not_of(" \t") == text.find("//")) continue;
      ++commented;
      const std::size_t start = text.find_first_not_of(" \t");
      const std::string shown = text.substr(start, 60);
      try {
        const smem::Analysis a = smem::analyze(gpu::commented_request(comment));
        const int count = instructions.count(line) ? instructions.at(line) : 0;
        std::printf("  %-6d %13d %11d %6d  %s\n", line, count, a.wavefronts, a.ideal,
                    shown.c_str());
        if (count == 0) {
          std::printf("    ^ no instruction of the %s kernels is on this line\n", space.c_str());
          ++faults;
        }
        if (a.wavefronts > a.ideal) {
          std::printf("    ^ the request conflicts: the reference's contract is conflict-free\n");
          ++faults;
        }
      } catch (const std::exception& e) {
        std::printf("  %-6d its comment is no request: %s\n", line, e.what());
        ++faults;
      }
    }
    if (commented == 0) {
      std::printf("no line of %s carries a `bank model:` comment\n", exercise.c_str());
      return 1;
    }
    return faults == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference_lines: %s\n", e.what());
    return 1;
  }
}
