#include "common/model/case_file.hpp"

#include <fstream>
#include <sstream>

namespace smem {

namespace {

std::optional<int> parse_cost(const std::string& token, const std::string& where,
                              const char* column) {
  if (token == "-") return std::nullopt;
  std::size_t used = 0;
  int value = -1;
  try {
    value = std::stoi(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != token.size() || value < 0) {
    throw CaseFileError(where + ": " + column + " '" + token + "' is not a count (or -)");
  }
  return value;
}

std::int64_t parse_address(const std::string& token, const std::string& where, int lane) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != token.size()) {
    throw CaseFileError(where + ": address of lane " + std::to_string(lane) + " '" + token +
                        "' is not a whole number");
  }
  return value;
}

}  // namespace

std::vector<SmemCase> read_cases(std::istream& in, const std::string& source) {
  std::vector<SmemCase> cases;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number);
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string token; fields >> token;) tokens.push_back(token);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    const std::size_t n = tokens.size();
    if (n != 3 + kWarpSize && n != 5 + kWarpSize) {
      throw CaseFileError(where + ": " + std::to_string(n) +
                          " fields; a case has name, width, op, [wavefronts, conflicts,] and 32 "
                          "addresses (35 or 37 fields)");
    }
    SmemCase c;
    c.name = tokens[0];
    c.line = number;
    try {
      std::size_t used = 0;
      c.request.width_bytes = std::stoi(tokens[1], &used);
      if (used != tokens[1].size()) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      throw CaseFileError(where + ": width '" + tokens[1] + "' is not a number");
    }
    std::size_t next = 3;
    if (n == 5 + kWarpSize) {
      c.wavefronts = parse_cost(tokens[3], where, "wavefronts");
      c.conflicts = parse_cost(tokens[4], where, "conflicts");
      next = 5;
    }
    for (int t = 0; t < kWarpSize; ++t)
      c.request.address[t] = parse_address(tokens[next + t], where, t);
    try {
      parse_op(tokens[2], c.request);
      validate(c.request);
    } catch (const InvalidRequest& e) {
      throw CaseFileError(where + ": case " + c.name + ": " + e.what());
    }
    cases.push_back(c);
  }
  return cases;
}

std::vector<SmemCase> read_case_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CaseFileError(path + ": cannot open the case file");
  return read_cases(in, path);
}

std::string format_case(const SmemCase& c) {
  std::ostringstream out;
  const WarpRequest& r = c.request;
  out << c.name << '\t' << r.width_bytes << '\t' << op_text(r) << '\t'
      << (c.wavefronts ? std::to_string(*c.wavefronts) : "-") << '\t'
      << (c.conflicts ? std::to_string(*c.conflicts) : "-") << '\t';
  for (int t = 0; t < kWarpSize; ++t) out << (t ? " " : "") << r.address[t];
  return out.str();
}

}  // namespace smem
