#include "grader/harness/measurements.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace grader {

namespace {
struct Row {
  std::string quantity, unit;
  double value;
};
std::map<std::string, std::vector<Row>>& recorded() {
  static std::map<std::string, std::vector<Row>> rows;
  return rows;
}
std::string& gpu_description() {
  static std::string description = "unknown GPU";
  return description;
}
}  // namespace

void record_measurement(const std::string& file, const std::string& quantity, double value,
                        const std::string& unit) {
  auto& rows = recorded()[file];
  for (Row& row : rows) {
    if (row.quantity == quantity) {
      row = Row{quantity, unit, value};
      return;
    }
  }
  rows.push_back(Row{quantity, unit, value});
}

void set_measurement_gpu(const std::string& description) {
  gpu_description() = description;
}

void write_measurements() {
  const char* dir = std::getenv("WORKBOOK_MEASUREMENTS_DIR");
  if (dir == nullptr || *dir == '\0') return;
  std::error_code ignored;  // a folder of its own (a variant's run): made here, once
  std::filesystem::create_directories(dir, ignored);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  for (const auto& [file, recorded_rows] : recorded()) {
    const std::string path = std::string(dir) + "/" + file + ".tsv";
    // Another grader run of the same build (the reference checks after the GPU checks) may have
    // written this file already: its numbers stay, unless this run measured them again.
    std::vector<Row> rows;
    if (std::ifstream before{path}) {
      std::string line;
      while (std::getline(before, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        Row row;
        std::string value;
        if (!std::getline(fields, row.quantity, '\t') || !std::getline(fields, value, '\t')) {
          continue;
        }
        std::getline(fields, row.unit);
        row.value = std::strtod(value.c_str(), nullptr);
        bool again = false;
        for (const Row& r : recorded_rows) again = again || r.quantity == row.quantity;
        if (!again) rows.push_back(row);
      }
    }
    rows.insert(rows.end(), recorded_rows.begin(), recorded_rows.end());
    std::ofstream out(path);
    out << "# Written by the grader's GPU checks (meson test); do not edit by hand.\n"
        << "# GPU: " << gpu_description() << "\n# date: " << date << "\n"
        << "# quantity\tvalue\tunit\n";
    for (const Row& row : rows) {
      std::ostringstream value;
      value.precision(6);
      value << row.value;
      out << row.quantity << "\t" << value.str() << "\t" << row.unit << "\n";
    }
  }
}

double read_measurement(const std::string& path, const std::string& quantity) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open measurement file " + path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    double value = 0;
    if (std::getline(fields, name, '\t') && name == quantity && (fields >> value)) return value;
  }
  throw std::runtime_error("measurement file " + path + " has no quantity '" + quantity + "'");
}

}  // namespace grader
