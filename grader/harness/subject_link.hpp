/// @file subject_link.hpp
/// @brief The judge's side: the grader calls the student's functions in the subject, a process
/// of their own (grader/harness/subject_protocol.hpp), so that no instruction the student wrote
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
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "grader/harness/subject_protocol.hpp"

namespace grader::subject {

/// The student's code did not answer a call: it crashed, exited, hung, threw or broke the
/// channel. what() says which, in a student's words; advice() what to look for.
class Fault : public std::runtime_error {
 public:
  Fault(const std::string& what, std::string advice, std::string thrown_type = "",
        std::string thrown_message = "")
      : std::runtime_error(what),
        advice_(std::move(advice)),
        thrown_type_(std::move(thrown_type)),
        thrown_message_(std::move(thrown_message)) {}
  const std::string& advice() const { return advice_; }
  /// Where the student's function threw: the exception's type, as typeid names it (compare it
  /// with typeid(T).name()), and its message; both empty for another fault.
  const std::string& thrown_type() const { return thrown_type_; }
  const std::string& thrown_message() const { return thrown_message_; }

 private:
  std::string advice_;
  std::string thrown_type_;
  std::string thrown_message_;
};

/// The grader's functions the subject may call back (the chapter's generated table).
void answer_calls_back(const Answer* table, std::size_t count);

/// Sends `call` to the subject and waits for its result, answering its calls back meanwhile;
/// throws Fault (the subject is then stopped, and started again by the next call).
Frame round_trip(const Frame& call, const std::string& shown);

/// The number of the student's function `fn` (the judge's definition of it), or -1 where `fn`
/// is no function of the student's this judge calls in the subject (the student's own, linked
/// in: a GPU grader). The generated code registers each.
int function_number(void (*fn)());
void register_function(void (*fn)(), std::uint32_t number);

/// The results of many calls of function `number`, whose argument lists `call` holds back to
/// back: `count` results of `result_bytes` each; throws Fault where the subject failed.
std::string answers_of_many(const Frame& call, std::size_t count, std::size_t result_bytes);

/// Calls the student's function `fn` with every argument list `each(add)` gives (it calls
/// add(args...) for each) and hands each result to `use(result, args...)`, in order: in the
/// subject a few round trips for all of them (millions of calls in a second or two), in a
/// program that holds the student's code one call each. Where the subject fails on a batch,
/// its calls are made one by one, so that the call that failed is the one reported.
template <typename R, typename... A, typename Each, typename Use>
void for_each_call(R (*fn)(A...), Each each, Use use) {
  const int number = function_number(reinterpret_cast<void (*)()>(fn));
  if (number < 0) {
    each([&](const std::decay_t<A>&... args) { use(fn(args...), args...); });
    return;
  }
  Frame call;
  call.kind = Kind::kMany;
  call.function = static_cast<std::uint32_t>(number);
  std::vector<std::tuple<std::decay_t<A>...>> pending;
  const auto flush = [&] {
    if (pending.empty()) return;
    std::string results;
    try {
      results = answers_of_many(call, pending.size(), sizeof(R));
    } catch (const Fault&) {
      for (const auto& args : pending) {
        std::apply([&](const auto&... a) { use(fn(a...), a...); }, args);
      }
      results.clear();
    }
    for (std::size_t k = 0; k < pending.size() && !results.empty(); ++k) {
      R value;
      std::memcpy(&value, results.data() + k * sizeof(R), sizeof(R));
      std::apply([&](const auto&... a) { use(value, a...); }, pending[k]);
    }
    pending.clear();
    call.bytes.clear();
  };
  each([&](const std::decay_t<A>&... args) {
    (call.put(args), ...);
    pending.emplace_back(args...);
    if (call.bytes.size() > kMaxFrame / 2) flush();
  });
  flush();
}
/// As above, for a function that is no function pointer (a lambda of a lesson check): one
/// call each.
template <typename F, typename Each, typename Use>
void for_each_call(F fn, Each each, Use use) {
  each([&](const auto&... args) { use(fn(args...), args...); });
}

/// fn(i, j, size) for every i < rows and j < cols, in row-major order (i * cols + j): a layout
/// rule's whole tile at `size`, asked of the student's code in one batch (for_each_call).
template <typename R>
std::vector<R> grid_of_calls(R (*fn)(int, int, int), int rows, int cols, int size) {
  std::vector<R> results;
  for_each_call(
      fn,
      [&](auto ask) {
        for (int i = 0; i < rows; ++i) {
          for (int j = 0; j < cols; ++j) ask(i, j, size);
        }
      },
      [&](R r, const auto&...) { results.push_back(r); });
  return results;
}

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
