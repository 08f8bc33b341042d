/// @file subject_link.hpp
/// @brief The judge's side: the grader calls the student's functions in the subject, a process
/// of their own (grader/harness/subject_serve.hpp), so that no instruction the student wrote
/// runs in the process that decides the verdicts and writes the report.
///
/// grader/tools/subject_calls.py writes, for each chapter, the judge's definitions of the
/// student's functions (each calls call() below) and the table of the grader's own functions of
/// the interface that the subject may call back. The subject is started on the first call, and
/// again after it failed: WORKBOOK_SUBJECT names its executable (default: the grader's own name
/// with _subject for _grader, beside it), WORKBOOK_SUBJECT_WRAPPER a program that runs it
/// (class grading's sandbox), WORKBOOK_SUBJECT_TIMEOUT the seconds one call may take (default
/// 30). What the student's code prints goes to the grader's standard output (the details file),
/// the first MiB of it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "grader/harness/subject_protocol.hpp"

namespace grader::subject {

/// The student's code did not answer a call: it crashed, exited, hung, threw or broke the
/// channel. what() says which, in a student's words; advice() what to look for.
class Fault : public std::runtime_error {
 public:
  Fault(const std::string& what, std::string advice)
      : std::runtime_error(what), advice_(std::move(advice)) {}
  const std::string& advice() const { return advice_; }

 private:
  std::string advice_;
};

/// A grader's function the subject may call back: reads its arguments from `call`, puts its
/// result into `result`; false when the arguments do not fit.
struct Answered {
  std::uint32_t function;
  bool (*answer)(Frame& call, Frame& result);
};

/// The grader's functions the subject may call back (the chapter's generated table).
void answer_calls_back(const Answered* table, std::size_t count);

/// Sends `call` to the subject and waits for its result, answering its calls back meanwhile;
/// throws Fault (the subject is then stopped, and started again by the next call).
Frame round_trip(const Frame& call, const std::string& shown);

/// Calls function `function` of the student's code (`name` in messages) with `args` in the
/// subject, and returns its result; throws Fault saying what went wrong.
template <typename R, typename... Args>
R call(std::uint32_t function, const char* name, const Args&... args) {
  Frame f;
  f.kind = Kind::kCall;
  f.function = function;
  (f.put(args), ...);
  Frame result = round_trip(f, call_text(name, args...));
  if constexpr (!std::is_void_v<R>) {
    R value{};
    if (!result.get(value) || !result.consumed()) {
      throw Fault("The grader got no " + call_text(name, args...) + " from your code.",
                  "your code must not write to file descriptors 3 and 4, the grader's channel.");
    }
    return value;
  }
}

}  // namespace grader::subject
