/// @file case_file.hpp
/// @brief Files of warp requests, one per line, with measured or expected costs.
///
/// The format of the workbook's case files (`common/model/tests/data/workbook-cases.tsv`, and what
/// validate_bank_model writes): `#` starts a comment line; every other line is
///
///     name  width  op  wavefronts  ncu_bank_conflicts  a0 a1 ... a31
///
/// separated by tabs or spaces: a name without blanks, the access width in bytes, the operation
/// (`load`, `store`, `ldmatrix.x1`, `ldmatrix.x2`, `ldmatrix.x4`), the measured wavefronts per
/// request and Nsight Compute's bank conflicts per request (`-` where not known, or both
/// columns left out), then 32 byte addresses, lane 0 first, `-1` for an inactive lane.
#pragma once

#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"

namespace smem {

/// One line of a case file.
struct SmemCase {
  std::string name;               ///< Case name.
  WarpRequest request;            ///< The warp request.
  std::optional<int> wavefronts;  ///< Expected or measured wavefronts per request, if given.
  std::optional<int> conflicts;   ///< Expected or measured bank conflicts per request, if given.
  int line = 0;                   ///< Line number in the file it came from (1-based).
};

/// A malformed case file; what() reads "FILE:LINE: what is wrong".
class CaseFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads cases from `in`; `source` names it in error messages. Every request is validated
/// (widths, alignment, ldmatrix rows), so a case that the model could not analyse is refused
/// with its line number.
std::vector<SmemCase> read_cases(std::istream& in, const std::string& source);

/// Reads a case file; throws CaseFileError when it cannot be opened or is malformed.
std::vector<SmemCase> read_case_file(const std::string& path);

/// One case as a line of the format (without the newline); absent costs are written as `-`.
std::string format_case(const SmemCase& c);

}  // namespace smem
