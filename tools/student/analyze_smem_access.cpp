// analyze_smem_access: what one warp's shared-memory access costs, with a picture of the banks.
//
//   analyze_smem_access [options] 'EXPRESSION OF t'
//   analyze_smem_access [options] --addresses 'a0 a1 ... a31'
//   analyze_smem_access --batch CASES.tsv
//
// Exit status: 0 done; 1 batch mode found a case whose expected cost the model does not give;
// 2 bad input (the message says what and where).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "common/model/access_arguments.hpp"
#include "common/model/access_report.hpp"
#include "common/model/bank_model.hpp"
#include "common/model/case_file.hpp"
#include "common/model/lane_expression.hpp"
#include "common/model/svg_picture.hpp"
#include "common/model/warp_picture.hpp"

namespace {

const char* const kUsage = R"(usage:
  analyze_smem_access [options] 'EXPRESSION'        lane t accesses byte address EXPRESSION
  analyze_smem_access [options] --addresses 'a0 ... a31'
  analyze_smem_access --batch CASES.tsv              check a case file against the model

EXPRESSION uses the lane index t, numbers (decimal or 0x hex), + - * / % ^ & | << >> and
parentheses, with C precedence: 't*33*4', '(t%8)*128 + ((t/8 ^ t%8) & 7)*16'.

options:
  --width N          bytes per lane: 1, 2, 4 (default), 8 or 16
  --op OP            load (default), store, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, or
                     cp.async.gN: a 16-byte cp.async whose lanes read global rows of N bytes
                     (16, 32, 64, 128; 512 for one contiguous run)
  --store            the same as --op store
  --active LANES     active lanes: a mask (0x0000ffff) or ranges (0-15,20,24-31); default all
  --shared-bytes N   shared memory size for the bounds check (default 232448, 227 KiB)
  --svg FILE         also write the picture as SVG (--svg - writes only the SVG, to stdout)
  --json             print JSON instead of the picture
  --colour, --no-colour   force colours on or off (default: on for a terminal, unless NO_COLOR)
)";

// A file that cannot be written or read: reported in one line, without the usage text.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Why `path` cannot be read: errno's words, or that it is a folder.
std::string read_problem(const std::string& path, int error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "it is a folder, not a case file";
  return std::strerror(error != 0 ? error : EIO);
}

int run_batch(const std::string& path) {
  errno = 0;
  std::ifstream in(path);
  if (!in) throw FileError("cannot read " + path + ": " + read_problem(path, errno));
  const std::vector<smem::SmemCase> cases = smem::read_cases(in, path);
  // A folder opens, and then its reads fail: that must not pass for a clean run of 0 cases.
  if (in.bad()) throw FileError("cannot read " + path + ": " + read_problem(path, errno));
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
  const smem::AccessArguments args =
      smem::parse_access_arguments(std::vector<std::string>(argv + 1, argv + argc));
  if (args.help) {
    std::cout << kUsage;
    return 0;
  }
  if (!args.batch_path.empty()) return run_batch(args.batch_path);
  const smem::WarpRequest& request = args.request;
  const std::string& expression = args.expression;
  const std::string& svg_path = args.svg_path;
  const std::string svg_title = expression.empty() ? "" : "address = " + expression;
  if (svg_path == "-") {
    std::cout << smem::draw_request_svg(request, svg_title);
    return 0;
  }
  if (args.json) {
    std::cout << smem::json_report(request);
  } else {
    std::cout << smem::text_report(request, args.colour.value_or(smem::stdout_wants_colour()));
  }
  if (!svg_path.empty()) {
    std::ofstream svg(svg_path);
    svg << smem::draw_request_svg(request, svg_title);
    svg.close();
    if (!svg) throw FileError("cannot write the SVG picture to " + svg_path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const smem::ExpressionError& e) {
    std::cerr << smem::error_report(e);
  } catch (const smem::InvalidRequest& e) {
    std::cerr << smem::error_report(e);
  } catch (const smem::CaseFileError& e) {
    std::cerr << smem::error_report(e);
  } catch (const smem::ArgumentError& e) {
    std::cerr << smem::error_report(e) << "\n" << kUsage;
  } catch (const FileError& e) {
    std::cerr << smem::error_report(e);
  }
  return 2;
}
