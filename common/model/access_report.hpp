/// @file access_report.hpp
/// @brief What `analyze_smem_access` shows for one request: its JSON, its text picture, and its
/// message for bad input.
///
/// The terminal analyser (tools/student/analyze_smem_access.cpp) and the bank model in the
/// browser (tools/student/browser/bank_model_in_browser.cpp) print these, so that the page
/// shows what the tool prints, character for character.
#pragma once

#include <exception>
#include <string>

#include "common/model/bank_model.hpp"

namespace smem {

/// What `analyze_smem_access --json` prints for `request` (validated; throws InvalidRequest if it
/// is malformed): width, op (as `--op` takes it: "load", "ldmatrix.x4", "cp.async.g128"), the 32
/// addresses (-1 for an inactive lane), merged_pairs, groups, wavefronts, ideal, conflicts, ways
/// and, for each group with an active lane, the words each bank serves and the lanes that touch
/// them.
std::string json_report(const WarpRequest& request);

/// What `analyze_smem_access` prints for `request` without `--json`: the line of numbers
/// ("groups 1, wavefronts 2, ideal 1, conflicts 1 (as Nsight Compute counts them), ways 2") and
/// the bank picture of draw_request(), up to 32 word rows per group; ANSI colours when `colour`.
std::string text_report(const WarpRequest& request, bool colour);

/// The analyser's message for bad input `error`: "error: " and what() on one line, then, for a
/// malformed expression (ExpressionError), the expression with a caret under the problem.
std::string error_report(const std::exception& error);

}  // namespace smem
