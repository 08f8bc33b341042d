// The line-by-line table of a kernel's shared-memory instructions (source_counters.hpp): host
// code only, so that its rows, the comments it reads and the model's figures are tested without
// a GPU.
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "common/counters/source_counters.hpp"
#include "common/model/access_arguments.hpp"
#include "common/model/bank_model.hpp"

namespace gpu {

namespace {

constexpr const char* kMarker = "bank model:";

// The real path of `path` ("" where it does not exist).
std::string real_path(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : "";
}

// A file's lines, read once per table; none for a file outside `readable` (real paths, each
// ending in '/').
const std::vector<std::string>& lines_of(const std::string& path,
                                         const std::vector<std::string>& readable,
                                         std::map<std::string, std::vector<std::string>>& files) {
  const auto found = files.find(path);
  if (found != files.end()) return found->second;
  std::vector<std::string>& lines = files[path];
  const std::string real = real_path(path);
  bool inside = false;
  for (const std::string& folder : readable) {
    inside = inside || (!real.empty() && real.compare(0, folder.size(), folder) == 0);
  }
  if (!inside) return lines;
  std::ifstream in(real);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::string bank_model_comment(const std::vector<std::string>& lines, int line) {
  const auto comment_of = [&](int n, bool alone) -> std::string {
    if (n < 1 || n > static_cast<int>(lines.size())) return "";
    const std::string& text = lines[static_cast<std::size_t>(n - 1)];
    const auto slashes = text.find("//");
    if (slashes == std::string::npos) return "";
    if (alone && !trimmed(text.substr(0, slashes)).empty()) return "";
    const auto marker = text.find(kMarker, slashes);
    return marker == std::string::npos ? ""
                                       : trimmed(text.substr(marker + std::string(kMarker).size()));
  };
  const std::string own = comment_of(line, false);
  return own.empty() ? comment_of(line - 1, true) : own;
}

smem::WarpRequest commented_request(const std::string& comment) {
  return smem::parse_access_arguments(smem::shell_words(comment)).request;
}

namespace {

struct Row {
  std::string file;
  int line = 0;
  std::string op;
  int instructions = 0;
  double requests = 0, wavefronts = 0, ideal = 0;
  bool ideal_known = true;
  std::uint32_t first_pc = 0;
};

std::string fixed2(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string padded(const std::string& s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string shared_lines_table(const std::vector<InstructionCount>& counts,
                               const std::vector<std::string>& readable_folders) {
  std::vector<std::string> readable;
  for (const std::string& folder : readable_folders) {
    const std::string real = real_path(folder);
    if (!real.empty()) readable.push_back(real.back() == '/' ? real : real + "/");
  }
  if (counts.empty()) return "  The kernel executed no shared-memory instruction.\n";
  // One row per line and kind, in the order of the first instruction's address.
  std::vector<Row> rows;
  std::map<std::tuple<std::string, int, std::string>, std::size_t> row_of;
  for (const InstructionCount& c : counts) {
    const auto key = std::make_tuple(c.file, c.line, c.op);
    auto found = row_of.find(key);
    if (found == row_of.end() || c.file.empty()) {
      found = row_of.insert_or_assign(key, rows.size()).first;
      Row row;
      row.file = c.file;
      row.line = c.line;
      row.op = c.op;
      row.first_pc = c.pc_offset;
      rows.push_back(row);
    }
    Row& row = rows[found->second];
    row.instructions += 1;
    row.requests += c.requests;
    row.wavefronts += c.wavefronts;
    row.ideal += c.ideal_wavefronts;
    row.ideal_known = row.ideal_known && c.ideal_wavefronts >= 0;
  }
  std::map<std::string, std::vector<std::string>> files;
  std::string out =
      "  Shared memory line by line, as the GPU counted it (per request: wavefronts per warp "
      "instruction; model: the bank model for the request of the line's `bank model:` "
      "comment):\n";
  // The line column fits the longest name, so a long file name never runs into the next column.
  const auto name_of = [](const Row& row) {
    return row.file.empty()
               ? "(line unknown, offset " + std::to_string(row.first_pc) + ")"
               : row.file.substr(row.file.rfind('/') + 1) + ":" + std::to_string(row.line);
  };
  std::size_t name_width = 34;
  for (const Row& row : rows) name_width = std::max(name_width, name_of(row).size() + 2);
  out += "    " + padded("line", name_width, false) + padded("access", 10, false) +
         padded("instr", 6, true) + padded("requests", 11, true) + padded("per request", 13, true) +
         padded("ideal", 7, true) + padded("model", 7, true) + "\n";
  std::string notes;
  for (const Row& row : rows) {
    const std::string name = name_of(row);
    const double per_request = row.requests > 0 ? row.wavefronts / row.requests : 0;
    const double ideal = row.requests > 0 ? row.ideal / row.requests : 0;
    const std::vector<std::string>& text =
        row.file.empty() ? std::vector<std::string>{} : lines_of(row.file, readable, files);
    std::string model = "-";
    std::string mark;
    const std::string comment = text.empty() ? "" : bank_model_comment(text, row.line);
    if (!comment.empty()) {
      try {
        const int wavefronts = smem::analyze(commented_request(comment)).wavefronts;
        model = std::to_string(wavefronts);
        if (std::fabs(per_request - wavefronts) > 0.005) mark = "  <- the model says otherwise";
      } catch (const std::exception& e) {
        model = "?";
        notes += "    " + name + ": its `bank model:` comment is not a request: " + e.what() + "\n";
      }
    }
    if (mark.empty() && row.ideal_known && per_request > ideal + 0.005) {
      mark = "  <- " + fixed2(per_request / ideal) + "x the ideal";
    }
    out += "    " + padded(name, name_width, false) + padded(row.op, 10, false) +
           padded(std::to_string(row.instructions), 6, true) +
           padded(std::to_string(std::llround(row.requests)), 11, true) +
           padded(fixed2(per_request), 13, true) +
           padded(row.ideal_known ? fixed2(ideal) : "-", 7, true) + padded(model, 7, true) + mark +
           "\n";
    if (row.line >= 1 && row.line <= static_cast<int>(text.size())) {
      out += "      " + trimmed(text[static_cast<std::size_t>(row.line - 1)]) + "\n";
    }
  }
  return out + notes;
}

}  // namespace gpu
