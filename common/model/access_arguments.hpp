/// @file access_arguments.hpp
/// @brief What `analyze_smem_access`'s arguments say: one warp request, and how to show it.
///
/// The analyser and the lessons' checks read the same arguments the same way: a lesson's
/// example ``analyze_smem_access --width 16 't*128'`` is the request the student draws.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"

namespace smem {

/// Arguments that do not describe a request: the message says what is wrong.
class ArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The largest shared memory one block can have on sm_90 (227 KiB): the default bound.
constexpr std::int64_t kDefaultSharedBytes = 227 * 1024;

/// Parsed arguments of analyze_smem_access.
struct AccessArguments {
  WarpRequest request;         ///< The request (empty when `batch_path` or `help` is set).
  std::string expression;      ///< Lane t's address as given ("" with --addresses).
  std::string svg_path;        ///< --svg FILE ("-": the SVG alone, to standard output).
  std::string batch_path;      ///< --batch CASES.tsv.
  bool json = false;           ///< --json.
  bool help = false;           ///< -h or --help.
  std::optional<bool> colour;  ///< --colour / --no-colour, when given.
  std::int64_t shared_bytes = kDefaultSharedBytes;  ///< --shared-bytes.
};

/// Reads analyze_smem_access's arguments (without the program's name): `--width N`, `--op OP`,
/// `--store`, `--active LANES`, `--shared-bytes N`, ``--addresses 'a0 ... a31'``, `--svg FILE`,
/// `--json`, `--colour`, `--no-colour`, `--batch FILE`, and one expression of `t`. Builds and
/// validates the request. Throws ArgumentError for arguments that make no request,
/// ExpressionError for a malformed expression and InvalidRequest for a request that cannot be
/// served.
AccessArguments parse_access_arguments(const std::vector<std::string>& args);

/// The words of a command line as a POSIX shell splits them: blanks separate, single or double
/// quotes group (what a lesson's example or a `bank model:` comment holds). Throws
/// ArgumentError for a quote left open.
std::vector<std::string> shell_words(const std::string& text);

/// "0xffff" or "0-15,20,24-31": the lane mask --active takes. Throws ArgumentError.
std::uint32_t parse_active_lanes(const std::string& text);

/// True when two requests are the same access: the same op, width, matrices and active lanes,
/// each at the same address.
bool same_access(const WarpRequest& a, const WarpRequest& b);

}  // namespace smem
