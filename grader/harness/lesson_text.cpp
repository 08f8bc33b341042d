#include "grader/harness/lesson_text.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "common/model/access_arguments.hpp"
#include "common/model/case_file.hpp"
#include "common/model/lane_expression.hpp"
#include "common/model/warp_picture.hpp"
#include "grader/harness/measurements.hpp"

#ifndef WORKBOOK_SOURCE_ROOT
#error "the build defines WORKBOOK_SOURCE_ROOT, the project's source folder"
#endif

namespace lesson {

std::string read_source_file(const std::string& path) {
  std::ifstream in(std::string(WORKBOOK_SOURCE_ROOT) + "/" + path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string read_lesson(const std::string& folder) {
  return read_source_file("chapters/" + folder + "/README.md");
}

std::string committed_measurements(const std::string& file, const std::string& gpu) {
  // "chNN_slug" is chapter NN_slug's: solutions/NN_slug/measurements/<gpu>.tsv;
  // "chNN_slug/wrong_answers/ANSWER" one of its wrong answers' (H200 only).
  if (file.size() < 6 || file.rfind("ch", 0) != 0) {
    throw std::runtime_error("'" + file + "' is not a chapter's measurement file (chNN_slug)");
  }
  const std::size_t slash = file.find('/');
  if (slash != std::string::npos) {
    return "solutions/" + file.substr(2, slash - 2) + "/measurements/" + file.substr(slash + 1) +
           ".tsv";
  }
  return "solutions/" + file.substr(2) + "/measurements/" + gpu + ".tsv";
}

bool awaits_first_gpu_run(const std::string& file) {
  const std::string path =
      std::string(WORKBOOK_SOURCE_ROOT) + "/" + committed_measurements(file, "h200");
  return !std::ifstream(path).good();
}

std::string first_gpu_run_note(const std::string& file) {
  return "not checked yet: no H200 run is committed for this chapter (" +
         committed_measurements(file, "h200") +
         "); run tools/maintainer/run_gpu_suite.sh on the H200 and commit what it writes";
}

double h200(const std::string& file, const std::string& quantity) {
  return grader::read_measurement(
      std::string(WORKBOOK_SOURCE_ROOT) + "/" + committed_measurements(file, "h200"), quantity);
}

std::string quoted_picture(const smem::WarpRequest& request) {
  const std::string picture = smem::draw_request(request);
  return picture.substr(0, picture.rfind(" (row wK"));
}

namespace {
std::string without_spaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t') out += c;
  }
  return out;
}

AnalyserExample draw_example(const std::string& where, const std::string& command) {
  AnalyserExample e;
  e.where = where;
  e.command = command;
  try {
    const smem::AccessArguments a = smem::parse_access_arguments(smem::shell_words(command));
    if (a.help || !a.batch_path.empty()) {
      e.error = "it draws no request";
      return e;
    }
    e.request = a.request;
    e.drawn = true;
  } catch (const std::exception& ex) {
    e.error = ex.what();
  }
  return e;
}

// The analyser's arguments in a line of the lesson, from `from` on: up to the end of the code
// span (a backtick) or of the line.
std::string arguments_from(const std::string& line, std::size_t from) {
  const std::size_t end = line.find('`', from);
  std::string args = line.substr(from, end == std::string::npos ? std::string::npos : end - from);
  while (!args.empty() && (args.back() == ' ' || args.back() == '.' || args.back() == ',')) {
    args.pop_back();
  }
  return args;
}

// Whether `a` and `b` ask the bank model the same question (counted_answers()).
bool same_question(const smem::WarpRequest& a, const smem::WarpRequest& b) {
  if (a.op != b.op || a.width_bytes != b.width_bytes || smem::op_text(a) != smem::op_text(b)) {
    return false;
  }
  const std::int64_t unit = a.op == smem::Op::kAsyncCopy ? 128 : smem::kBankWidthBytes;
  bool first = true;
  std::int64_t shift = 0;
  for (int t = 0; t < smem::kWarpSize; ++t) {
    if (a.active(t) != b.active(t)) return false;
    if (!a.active(t)) continue;
    if (first) {
      shift = b.address[t] - a.address[t];
      first = false;
      if (shift % unit != 0) return false;
    } else if (b.address[t] - a.address[t] != shift) {
      return false;
    }
  }
  return true;
}

// A request's addresses, for a message.
std::string lanes_of(const smem::WarpRequest& r) {
  std::string out = r.describe() + ", lanes 0-3 at";
  for (int t = 0; t < 4; ++t) out += " " + std::to_string(r.address[t]);
  return out;
}

}  // namespace

std::vector<AnalyserExample> analyser_examples(const std::string& lesson_text,
                                               const std::string& figures_tsv) {
  std::vector<AnalyserExample> examples;
  std::istringstream lines(lesson_text);
  std::string line;
  int number = 0;
  const std::string tool = "analyze_smem_access";
  while (std::getline(lines, line)) {
    ++number;
    const std::string where = "line " + std::to_string(number) + " of the lesson";
    // The tool's arguments; a code span that goes on with more arguments, `--width 1 't*128'`,
    // or that is an expression alone, `'(t%16)*32'`.
    for (const auto& [start, skip] :
         {std::pair<std::string, std::size_t>{tool, tool.size()}, {"`--", 1}, {"`'", 1}}) {
      for (std::size_t at = line.find(start); at != std::string::npos;
           at = line.find(start, at + 1)) {
        const std::string args = arguments_from(line, at + skip);
        // A mention of the tool with no expression to draw is not an example.
        if (args.find('\'') == std::string::npos) continue;
        examples.push_back(draw_example(where, args));
      }
    }
  }
  std::istringstream rows(figures_tsv);
  number = 0;
  while (std::getline(rows, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, '\t');) cells.push_back(cell);
    // A figure drawn by a script of its own (FILE, "drawn by", SCRIPT) draws no request.
    if (cells.size() == 3 && cells[1] == "drawn by") continue;
    for (std::size_t k = 2; k < cells.size(); k += 2) {
      examples.push_back(draw_example("figures.tsv line " + std::to_string(number), cells[k]));
    }
  }
  return examples;
}

std::vector<std::string> printed_answers(const std::string& lesson_text,
                                         const std::vector<Graded>& graded,
                                         const std::string& figures_tsv) {
  std::vector<std::string> found;
  for (const AnalyserExample& e : analyser_examples(lesson_text, figures_tsv)) {
    if (!e.drawn) {
      found.push_back("the lesson's analyser example `" + e.command + "` (" + e.where +
                      ") cannot be drawn as written: " + e.error +
                      ". Write a concrete access, one no exercise grades.");
      continue;
    }
    for (const Graded& g : graded) {
      for (const smem::WarpRequest& request : g.requests) {
        if (smem::same_access(e.request, request)) {
          found.push_back("the lesson's analyser example `" + e.command + "` (" + e.where +
                          ") is the request of " + g.what + " (" + lanes_of(request) +
                          "): work a neighbour instead, another width, row, mode or pitch");
        }
      }
    }
  }
  const std::string squeezed = without_spaces(lesson_text);
  for (const Graded& g : graded) {
    for (const std::string& phrase : g.phrases) {
      if (squeezed.find(without_spaces(phrase)) != std::string::npos) {
        found.push_back("the lesson gives away " + g.what + ": it holds `" + phrase + "`");
      }
    }
    for (const smem::WarpRequest& request : g.requests) {
      // The rows of the picture, without its header line (which a lesson may word otherwise).
      const std::string picture = quoted_picture(request);
      const std::string rows = picture.substr(picture.find('\n') + 1);
      if (lesson_text.find(rows) != std::string::npos) {
        found.push_back("the lesson gives away " + g.what + ": it shows its bank picture\n" +
                        picture);
      }
    }
  }
  return found;
}

std::vector<std::string> counted_answers(const std::vector<Graded>& graded,
                                         const std::string& counted_tsv,
                                         const std::string& source) {
  std::istringstream in(counted_tsv);
  std::vector<std::string> found;
  for (const smem::SmemCase& c : smem::read_cases(in, source)) {
    for (const Graded& g : graded) {
      for (const smem::WarpRequest& request : g.requests) {
        if (same_question(c.request, request)) {
          found.push_back(source + " line " + std::to_string(c.line) + ": case " + c.name +
                          " asks what " + g.what + " grades (" + lanes_of(request) +
                          "), and the bank model in the browser would show what the H200 "
                          "counted for it. Write the file again without it: "
                          "tools/maintainer/make_counted_cases.py");
          break;
        }
      }
    }
  }
  return found;
}

std::vector<std::string> table_row(const std::string& lesson, const std::string& first_cell) {
  const std::size_t at = lesson.find("\n| " + first_cell + " |");
  if (at == std::string::npos) return {};
  const std::string line = lesson.substr(at + 1, lesson.find('\n', at + 1) - at - 1);
  std::vector<std::string> cells;
  std::stringstream parts(line);
  for (std::string cell; std::getline(parts, cell, '|');) {
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    if (!cell.empty()) cells.push_back(cell);
  }
  return cells;
}

int wavefronts_of(int width, const std::function<long long(int)>& address) {
  return smem::analyze(smem::WarpRequest::from_lanes(width, smem::Op::kLoad, address)).wavefronts;
}

void Figures::add(const std::string& name, double value, const std::string& source) {
  figures_.push_back(Figure{name, value, source});
}

void Figures::add_read(const std::string& name, const std::string& source,
                       const std::function<double()>& read) {
  try {
    add(name, read(), source);
  } catch (const std::runtime_error& e) {
    missing_.push_back(
        "figure '" + name + "' has no value: " + e.what() +
        " (run tools/maintainer/run_gpu_suite.sh on the H200 and commit what it writes)");
    add(name, std::nan(""), source);
  }
}

void Figures::measured(const std::string& name, const std::string& file,
                       const std::string& quantity) {
  add_read(name, committed_measurements(file, "h200") + ", " + quantity,
           [&] { return h200(file, quantity); });
}

namespace {

// A figure quoted "about X" is held within a spread, which must be above 0 (a NaN is not).
void require_spread(const char* function, const std::string& name, double tolerance) {
  if (!(tolerance > 0)) {
    throw std::invalid_argument(std::string("Figures::") + function + ": figure '" + name +
                                "' needs a tolerance above 0");
  }
}

}  // namespace

void Figures::measured_about(const std::string& name, const std::string& file,
                             const std::string& quantity, double tolerance) {
  require_spread("measured_about", name, tolerance);
  measured(name, file, quantity);
  figures_.back().tolerance = tolerance;
}

void Figures::about(const std::string& name, double value, const std::string& source,
                    double tolerance) {
  require_spread("about", name, tolerance);
  add(name, value, source);
  figures_.back().tolerance = tolerance;
}

void Figures::measured_case(const std::string& name, const std::string& case_name) {
  const std::string file = "tools/maintainer/measurements/h200/smem-cases.tsv";
  add_read(name, file + ", case " + case_name, [&] {
    std::istringstream text(read_source_file(file));
    for (const smem::SmemCase& c : smem::read_cases(text, file)) {
      if (c.name == case_name && c.wavefronts) return static_cast<double>(*c.wavefronts);
    }
    throw std::runtime_error("no measured case " + case_name + " in " + file);
  });
}

void Figures::threshold(const grader::Threshold& t) {
  add(std::string("threshold.") + t.name, t.value, "the chapter's manifest");
}

std::vector<std::string> Figures::problems(const std::string& lesson_text) const {
  std::vector<std::string> out = missing_;
  std::vector<bool> quoted(figures_.size(), false);
  static const std::regex marker(R"(<!--fig:([A-Za-z0-9_.]+)-->(-?[0-9]+(\.[0-9]+)?)?)");
  for (auto it = std::sregex_iterator(lesson_text.begin(), lesson_text.end(), marker);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    std::size_t k = 0;
    while (k < figures_.size() && figures_[k].name != name) ++k;
    if (k == figures_.size()) {
      out.push_back("the lesson marks a figure '" + name +
                    "' that its lesson_checks.cpp does not declare");
      continue;
    }
    quoted[k] = true;
    if ((*it)[2].length() == 0) {
      out.push_back("the marker of figure '" + name + "' is not followed by a number");
      continue;
    }
    const std::string printed = (*it)[2];
    const Figure& f = figures_[k];
    if (std::isnan(f.value)) continue;  // reported as missing above
    // Right to the digits printed: 0.86 stands for [0.855, 0.865], 3 for [2.5, 3.5].
    const std::size_t point = printed.find('.');
    const int decimals =
        point == std::string::npos ? 0 : static_cast<int>(printed.size() - point - 1);
    const double half_unit = 0.5 * std::pow(10.0, -decimals);
    const double allowed = f.tolerance > 0 ? f.tolerance : half_unit;
    if (std::fabs(std::strtod(printed.c_str(), nullptr) - f.value) > allowed * (1 + 1e-9)) {
      std::ostringstream message;
      message << "figure '" << name << "': the lesson prints " << printed << ", but " << f.source
              << " gives " << f.value
              << (f.tolerance > 0 ? ", further than the run-to-run spread allowed"
                                  : ", which rounds to other digits");
      out.push_back(message.str());
    }
  }
  for (std::size_t k = 0; k < figures_.size(); ++k) {
    if (!quoted[k]) {
      out.push_back(
          "figure '" + figures_[k].name + "' (" + figures_[k].source +
          ") is declared but the lesson never quotes it with <!--fig:" + figures_[k].name + "-->");
    }
  }
  return out;
}

}  // namespace lesson
