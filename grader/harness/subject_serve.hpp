/// @file subject_serve.hpp
/// @brief The subject's side of the judge's calls: the student's code, in a process of its own,
/// answers each call of a function of the interface, and calls back the grader's own functions
/// of the interface (a variant's cases) through the judge.
///
/// Included by the subject's main, which grader/tools/subject_calls.py writes for each chapter
/// and which holds no grader code but this: the subject links the student's exercise, this
/// header and the CUDA runtime, nothing of the harness, the bank model or any answer.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <exception>
#include <string>

#include "grader/harness/subject_protocol.hpp"

namespace grader::subject {

/// One function the subject answers: it reads the arguments from `call` and puts the result
/// into `result`; false when the arguments do not fit the function.
struct Served {
  std::uint32_t function;
  bool (*answer)(Frame& call, Frame& result);
};

/// The result of the grader's function `function` for `args` (a call back to the judge). The
/// judge answers nothing else while it waits; a lost judge ends the subject.
template <typename R, typename... Args>
R call_back(std::uint32_t function, const Args&... args) {
  Frame call;
  call.kind = Kind::kCall;
  call.function = function;
  (call.put(args), ...);
  Frame reply;
  if (!send(kResultsFd, call) || !receive(kCallsFd, reply) || reply.kind != Kind::kResult) {
    _exit(3);
  }
  if constexpr (!std::is_void_v<R>) {
    R value{};
    if (!reply.get(value)) _exit(3);
    return value;
  }
}

/// Answers the judge's calls until it closes its end; returns the exit status.
template <std::size_t N>
int serve(const Served (&functions)[N]) {
  for (Frame call; receive(kCallsFd, call);) {
    if (call.kind != Kind::kCall && call.kind != Kind::kMany) return 2;
    Frame result;
    result.kind = Kind::kResult;
    result.function = call.function;
    const Served* served = nullptr;
    for (const Served& s : functions) {
      if (s.answer != nullptr && s.function == call.function) served = &s;
    }
    try {
      bool answered = served != nullptr && served->answer(call, result);
      while (answered && call.kind == Kind::kMany && !call.consumed()) {
        answered = served->answer(call, result);
      }
      if (!answered || !call.consumed()) {
        result.kind = Kind::kThrew;
        result.bytes.clear();
        const std::string why = "the grader called a function this subject does not answer";
        result.bytes.assign(why.begin(), why.end());
      }
    } catch (const std::exception& e) {
      const std::string what = e.what();
      result.kind = Kind::kThrew;
      result.bytes.assign(what.begin(), what.end());
    } catch (...) {
      const std::string what = "an exception that is not a std::exception";
      result.kind = Kind::kThrew;
      result.bytes.assign(what.begin(), what.end());
    }
    if (!send(kResultsFd, result)) return 3;
  }
  return 0;
}

}  // namespace grader::subject
