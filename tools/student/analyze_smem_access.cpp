// analyze_smem_access: what one warp's shared-memory access costs, with a picture of the banks.
//
//   analyze_smem_access [options] 'EXPRESSION OF t'
//   analyze_smem_access [options] --addresses 'a0 a1 ... a31'
//   analyze_smem_access --batch CASES.tsv
//
// Exit status: 0 done; 1 batch mode found a case whose expected cost the model does not give;
// 2 bad input (the message says what and where).
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "common/model/case_file.hpp"
#include "common/model/lane_expression.hpp"
#include "common/model/svg_picture.hpp"
#include "common/model/warp_picture.hpp"

namespace {

// The largest shared memory one block can have on sm_90 (227 KiB): the default bound.
constexpr std::int64_t kDefaultSharedBytes = 227 * 1024;

const char* const kUsage = R"(usage:
  analyze_smem_access [options] 'EXPRESSION'        lane t accesses byte address EXPRESSION
  analyze_smem_access [options] --addresses 'a0 ... a31'
  analyze_smem_access --batch CASES.tsv              check a case file against the model

EXPRESSION uses the lane index t, numbers (decimal or 0x hex), + - * / % ^ & | << >> and
parentheses, with C precedence: 't*33*4', '(t%8)*128 + ((t/8 ^ t%8) & 7)*16'.

options:
  --width N          bytes per lane: 1, 2, 4 (default), 8 or 16
  --op OP            load (default), store, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4
  --store            the same as --op store
  --active LANES     active lanes: a mask (0x0000ffff) or ranges (0-15,20,24-31); default all
  --shared-bytes N   shared memory size for the bounds check (default 232448, 227 KiB)
  --svg FILE         also write the picture as SVG (--svg - writes only the SVG, to stdout)
  --json             print JSON instead of the picture
  --colour, --no-colour   force colours on or off (default: on for a terminal, unless NO_COLOR)
)";

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file that cannot be written: reported in one line, without the usage text.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::int64_t parse_integer(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty()) {
    throw BadInput(what + ": '" + text + "' is not a whole number");
  }
  return value;
}

// "0xffff" or "0-15,20,24-31" -> lane mask.
std::uint32_t parse_active(const std::string& text) {
  if (text.find_first_not_of(" \t") == std::string::npos) {
    throw BadInput("--active is empty: give a mask (0x0000ffff) or lanes and ranges (0-15,20)");
  }
  if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) {
    const std::int64_t mask = parse_integer(text, "--active");
    if (mask < 0 || mask > 0xffffffffLL) throw BadInput("--active: mask wider than 32 lanes");
    return static_cast<std::uint32_t>(mask);
  }
  std::uint32_t mask = 0;
  std::stringstream parts(text);
  for (std::string part; std::getline(parts, part, ',');) {
    const std::size_t dash = part.find('-');
    const std::int64_t first = parse_integer(part.substr(0, dash), "--active lane");
    const std::int64_t last =
        dash == std::string::npos ? first : parse_integer(part.substr(dash + 1), "--active lane");
    if (first < 0 || last > 31 || first > last) {
      throw BadInput("--active: '" + part + "' is not a lane or a range of lanes within 0-31");
    }
    for (std::int64_t t = first; t <= last; ++t) mask |= 1u << t;
  }
  return mask;
}

std::string json_request(const smem::WarpRequest& r, const smem::Analysis& a) {
  std::ostringstream out;
  out << "{\n  \"width\": " << r.width_bytes << ",\n  \"op\": \""
      << (r.op == smem::Op::kLdmatrix ? r.describe() : smem::to_string(r.op))
      << "\",\n  \"addresses\": [";
  for (int t = 0; t < smem::kWarpSize; ++t) {
    out << (t ? ", " : "") << (r.active(t) ? r.address[t] : -1);
  }
  out << "],\n  \"merged_pairs\": " << (smem::pairs_merge(r) ? "true" : "false")
      << ",\n  \"groups\": " << a.active_groups << ",\n  \"wavefronts\": " << a.wavefronts
      << ",\n  \"ideal\": " << a.ideal << ",\n  \"conflicts\": " << a.excess
      << ",\n  \"ways\": " << a.ways << ",\n  \"group_detail\": [";
  bool first_group = true;
  for (const smem::GroupAnalysis& g : a.groups) {
    if (g.wavefronts == 0) continue;
    out << (first_group ? "" : ",") << "\n    {\"first_lane\": " << g.first_lane
        << ", \"lane_count\": " << g.lane_count << ", \"wavefronts\": " << g.wavefronts
        << ", \"banks\": [";
    first_group = false;
    for (int b = 0; b < smem::kNumBanks; ++b) {
      out << (b ? ", " : "") << "[";
      for (std::size_t k = 0; k < g.banks[b].size(); ++k) {
        out << (k ? ", " : "") << "{\"word\": " << g.banks[b][k].word << ", \"lanes\": [";
        for (std::size_t i = 0; i < g.banks[b][k].lanes.size(); ++i) {
          out << (i ? ", " : "") << g.banks[b][k].lanes[i];
        }
        out << "]}";
      }
      out << "]";
    }
    out << "]}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

int run_batch(const std::string& path) {
  const std::vector<smem::SmemCase> cases = smem::read_case_file(path);
  int mismatches = 0;
  std::cout << "# name\twavefronts\tideal\tconflicts\n";
  for (const smem::SmemCase& c : cases) {
    const smem::Analysis a = smem::analyze(c.request);
    std::cout << c.name << '\t' << a.wavefronts << '\t' << a.ideal << '\t' << a.excess;
    const bool wrong_wavefronts = c.wavefronts && *c.wavefronts != a.wavefronts;
    const bool wrong_conflicts = c.conflicts && *c.conflicts != a.excess;
    if (wrong_wavefronts || wrong_conflicts) {
      ++mismatches;
      std::cout << "\tMISMATCH: expected";
      if (c.wavefronts) std::cout << " wavefronts " << *c.wavefronts;
      if (c.conflicts) std::cout << " conflicts " << *c.conflicts;
      std::cout << " (line " << c.line << ")";
    }
    std::cout << '\n';
  }
  std::cout << cases.size() << " cases, " << mismatches << " mismatches\n";
  return mismatches == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
  smem::WarpRequest request;
  std::string expression, addresses, svg_path, batch_path, op = "load";
  bool expression_given = false;
  std::uint32_t active = 0xffffffffu;
  std::int64_t shared_bytes = kDefaultSharedBytes;
  bool json = false, colour = smem::stdout_wants_colour();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw BadInput(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--width") {
      request.width_bytes = static_cast<int>(parse_integer(value(), "--width"));
    } else if (arg == "--op") {
      op = value();
    } else if (arg == "--store") {
      op = "store";
    } else if (arg == "--active") {
      active = parse_active(value());
    } else if (arg == "--shared-bytes") {
      shared_bytes = parse_integer(value(), "--shared-bytes");
      if (shared_bytes <= 0) throw BadInput("--shared-bytes must be positive");
    } else if (arg == "--addresses") {
      addresses = value();
    } else if (arg == "--svg") {
      svg_path = value();
    } else if (arg == "--batch") {
      batch_path = value();
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--colour" || arg == "--color") {
      colour = true;
    } else if (arg == "--no-colour" || arg == "--no-color") {
      colour = false;
    } else if (arg.size() > 2 && arg[0] == '-' && arg[1] == '-') {
      throw BadInput("unknown option " + arg);
    } else if (!expression_given) {
      expression = arg;
      expression_given = true;
    } else {
      throw BadInput("more than one expression given ('" + expression + "' and '" + arg +
                     "'); quote an expression that contains spaces");
    }
  }
  if (!batch_path.empty()) return run_batch(batch_path);
  if (expression_given && expression.find_first_not_of(" \t") == std::string::npos) {
    throw BadInput("the expression is empty: give lane t's byte address, for example 't*4'");
  }
  if (expression_given == !addresses.empty()) {
    throw BadInput(expression_given ? "give either an expression of t or --addresses, not both"
                                    : "give lane t's byte address as an expression of t (for "
                                      "example 't*4'), or 32 addresses with --addresses");
  }
  if (op == "ldmatrix.x1" || op == "ldmatrix.x2" || op == "ldmatrix.x4") request.width_bytes = 16;
  smem::parse_op(op, request);

  if (!expression.empty()) {
    const smem::LaneExpression e = smem::LaneExpression::parse(expression);
    for (int t = 0; t < smem::kWarpSize; ++t) {
      request.address[t] = e.evaluate(t);
      if (request.address[t] < 0) {
        throw BadInput("lane " + std::to_string(t) + ": the expression gives " +
                       std::to_string(request.address[t]) +
                       ", a negative address (switch lanes off with --active, not with a "
                       "negative address)");
      }
    }
  } else {
    std::istringstream in(addresses);
    std::vector<std::string> tokens;
    for (std::string token; in >> token;) tokens.push_back(token);
    if (tokens.size() != smem::kWarpSize) {
      throw BadInput("--addresses: " + std::to_string(tokens.size()) +
                     " numbers given; a warp needs exactly 32 (use -1 for an inactive lane)");
    }
    for (int t = 0; t < smem::kWarpSize; ++t) {
      request.address[t] = parse_integer(tokens[t], "--addresses, lane " + std::to_string(t));
    }
  }
  for (int t = 0; t < smem::kWarpSize; ++t) {
    if (!(active >> t & 1u)) request.address[t] = smem::kInactive;
  }
  smem::validate(request, shared_bytes);
  const smem::Analysis analysis = smem::analyze(request);

  const std::string svg_title = expression.empty() ? "" : "address = " + expression;
  if (svg_path == "-") {
    std::cout << smem::draw_request_svg(request, svg_title);
    return 0;
  }
  if (json) {
    std::cout << json_request(request, analysis);
  } else {
    std::cout << "groups " << analysis.active_groups << ", wavefronts " << analysis.wavefronts
              << ", ideal " << analysis.ideal << ", conflicts " << analysis.excess
              << " (as Nsight Compute counts them), ways " << analysis.ways << "\n";
    smem::PictureStyle style;
    style.colour = colour;
    style.max_rows = 32;
    std::cout << smem::draw_request(request, style);
  }
  if (!svg_path.empty()) {
    std::ofstream svg(svg_path);
    svg << smem::draw_request_svg(request, svg_title);
    svg.close();
    if (!svg) throw OutputError("cannot write the SVG picture to " + svg_path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const smem::ExpressionError& e) {
    std::cerr << "error: " << e.what() << "\n" << e.pointer() << "\n";
  } catch (const smem::InvalidRequest& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const smem::CaseFileError& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const BadInput& e) {
    std::cerr << "error: " << e.what() << "\n\n" << kUsage;
  } catch (const OutputError& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 2;
}
