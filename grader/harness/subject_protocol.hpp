/// @file subject_protocol.hpp
/// @brief How a grader (the judge) and the student's code (the subject) talk: frames of bytes on
/// two pipes, each a call of a function of the chapter's interface or its result.
///
/// The judge holds the checks and never runs the student's code (grader/harness/subject_link.hpp);
/// the subject holds the student's exercise and no grader code but this header: its main, which
/// grader/tools/subject_calls.py writes for each chapter, serves the judge's calls with serve()
/// below and links nothing of the harness, the bank model or any answer. A frame is a 4-byte length
/// (of what follows), a kind, a function's number and its arguments or result, each a trivially
/// copyable value sent as its bytes (both processes are built from the same interface header, for
/// the same machine). Either side may call while it waits for a result: the subject calls back the
/// functions of the interface the grader defines (a variant's cases), the judge the student's.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace grader::subject {

/// What a frame carries.
enum class Kind : std::uint8_t {
  kCall = 1,    ///< a call: the function's number, then each argument
  kResult = 2,  ///< the result of the call waited for (empty for void)
  kThrew = 3,   ///< the call threw: its type's name (typeid), a NUL, then its message
  kMany = 4,    ///< many calls of one function, their arguments back to back; its result is
                ///< their results back to back
};

/// The file descriptors the subject reads its calls from and writes its results to.
inline constexpr int kCallsFd = 3;
inline constexpr int kResultsFd = 4;
/// The largest frame either side accepts.
inline constexpr std::uint32_t kMaxFrame = 1u << 20;

/// A frame being built or read.
struct Frame {
  Kind kind = Kind::kCall;
  std::uint32_t function = 0;
  std::string bytes;   ///< the arguments or the result, back to back
  std::size_t at = 0;  ///< how far get() has read `bytes`

  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "only trivially copyable values cross");
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  /// The next value; false when the frame holds fewer bytes than it needs.
  template <typename T>
  bool get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "only trivially copyable values cross");
    if (bytes.size() - at < sizeof(T)) return false;
    std::memcpy(&value, bytes.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  bool consumed() const { return at == bytes.size(); }
};

/// Writes all of `size` bytes; false on an error (the other side is gone).
inline bool write_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

/// Reads exactly `size` bytes; false at the end of the pipe or on an error.
inline bool read_all(int fd, void* data, std::size_t size) {
  auto* p = static_cast<unsigned char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

/// Sends a frame in one write (a call is a few dozen bytes: one system call each way).
inline bool send(int fd, const Frame& f) {
  const std::uint32_t length = static_cast<std::uint32_t>(1 + 4 + f.bytes.size());
  std::string out(9, '\0');
  std::memcpy(out.data(), &length, 4);
  out[4] = static_cast<char>(f.kind);
  std::memcpy(out.data() + 5, &f.function, 4);
  out += f.bytes;
  return write_all(fd, out.data(), out.size());
}

/// Reads one frame (the caller waited until it can be read); false at the end of the pipe, on
/// an error, or for a frame that breaks the rules (a length out of bounds, an unknown kind).
inline bool receive(int fd, Frame& f) {
  std::uint32_t length = 0;
  if (!read_all(fd, &length, 4) || length < 5 || length > kMaxFrame) return false;
  std::string rest(length, '\0');
  if (!read_all(fd, rest.data(), length)) return false;
  if (rest[0] < 1 || rest[0] > 4) return false;
  f.kind = static_cast<Kind>(rest[0]);
  std::memcpy(&f.function, rest.data() + 1, 4);
  f.bytes.assign(rest, 5, std::string::npos);
  f.at = 0;
  return true;
}

/// A function one side answers for the other (the subject the student's, the judge the grader's
/// own functions of the interface, a variant's cases): reads the arguments from `call`, puts the
/// result into `result`; false when the arguments do not fit the function.
struct Answer {
  std::uint32_t function;
  bool (*answer)(Frame& call, Frame& result);
};

/// Whether the interface's enum T has an enum_name(T) (the judge's calls, subject_calls.py).
template <typename T, typename = void>
struct has_enum_name : std::false_type {};
template <typename T>
struct has_enum_name<T, std::void_t<decltype(enum_name(std::declval<T>()))>> : std::true_type {};

/// A value as a message shows it: an enumerator by its name where the interface's enum has one,
/// numbers as written, anything else by its size.
template <typename T>
std::string describe(const T& value) {
  if constexpr (std::is_enum_v<T> && has_enum_name<T>::value) {
    return enum_name(value);
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<long long>(value));
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else if constexpr (std::is_pointer_v<T>) {
    return value == nullptr ? "nullptr" : "a pointer";
  } else {
    return "{...}";
  }
}

/// "name(a, b)" for a call of `name` with `args`.
template <typename... Args>
std::string call_text(const char* name, const Args&... args) {
  std::string text = std::string(name) + "(";
  bool first = true;
  ((text += (first ? "" : ", ") + describe(args), first = false), ...);
  return text + ")";
}

/// In the subject: the result of the grader's function `function` for `args` (a call back to the
/// judge). The judge answers nothing else while it waits; a lost judge ends the subject.
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

/// In the subject: answers the judge's calls until it closes its end; returns the exit status.
template <std::size_t N>
int serve(const Answer (&functions)[N]) {
  for (Frame call; receive(kCallsFd, call);) {
    if (call.kind != Kind::kCall && call.kind != Kind::kMany) return 2;
    Frame result;
    result.kind = Kind::kResult;
    result.function = call.function;
    const Answer* served = nullptr;
    for (const Answer& s : functions) {
      if (s.answer != nullptr && s.function == call.function) served = &s;
    }
    try {
      bool answered = served != nullptr && served->answer(call, result);
      while (answered && call.kind == Kind::kMany && !call.consumed()) {
        answered = served->answer(call, result);
      }
      if (!answered || !call.consumed()) {
        result.kind = Kind::kThrew;
        result.bytes = "the grader called a function this subject does not answer";
      }
    } catch (const std::exception& e) {
      result.kind = Kind::kThrew;
      result.bytes = std::string(typeid(e).name()) + '\0' + e.what();
    } catch (...) {
      result.kind = Kind::kThrew;
      result.bytes = "an exception that is not a std::exception";
    }
    if (!send(kResultsFd, result)) return 3;
  }
  return 0;
}

}  // namespace grader::subject
