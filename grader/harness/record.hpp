/// @file record.hpp
/// @brief The record of a grader's run: one JSON object a line, from which every view of the run
/// is derived (the compact report, by render(); class grading's results and report).
///
/// `<grader> host|gpu --record PATH` writes it as the run goes, each line whole with one write:
///
///     {"record": 1, "chapter": "chNN", "mode": "host", "variant": "variant 0 (self-study)",
///      "cases": "Graded on ...", "setting": ["..."], "details": "build/feedback/...",
///      "details_missing": ""}
///     {"setting": "random inputs from seed ..."}          (a line of the run's setting, added)
///     {"check": "chNN exercise 1: ...", "outcome": "failed", "skip_reason": "", "failures": 3,
///      "headline": "...", "parts": [{"kind": "line", "text": "..."}], "what_to_do": "",
///      "ended_run": false}                                 (a check, as it ends)
///     {"end": "finished"}                                  (or "crashed"; or "exit" with
///                                                           "stopped": the check, not reported)
///
/// `outcome` is passed, failed or skipped; a part's `kind` is line, picture, hint or note. A run
/// that stops early (exit(), a crash, a hang, killed) leaves the lines of the checks that ended;
/// the checks without a line did not report. Nothing follows the closing line.
#pragma once

#include <istream>
#include <string>

#include "grader/harness/report.hpp"

namespace grader::record {

/// The first line: the run's chapter, mode, variant, cases, setting and details file.
std::string header_line(const report::Run& run);
/// A line of the run's setting added after the header (the seed of the random inputs).
std::string setting_line(const std::string& setting);
/// A check that ended.
std::string check_line(const report::Check& check);
/// The closing line: `how` the run ended ("finished", "crashed"; "exit" with the check it
/// stopped in, `stopped`, which did not report).
std::string end_line(const std::string& how, const report::Check* stopped = nullptr);

/// The run a record tells, as far as it goes. Throws std::runtime_error, naming the line, for
/// a line the grader does not write.
report::Run read(std::istream& in);

}  // namespace grader::record
