// The judge's side of the channel to the subject (grader/harness/subject_link.hpp): starts the
// subject, sends it calls, answers its calls back, and says in a student's words how it ended
// when it does not answer.
#include "grader/harness/subject_link.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

extern char** environ;

namespace grader::subject {

namespace {

constexpr std::size_t kShownOutputBytes = 1 << 20;

const Answer* answered_table = nullptr;
std::size_t answered_count = 0;

std::string self_path() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

// The subject's executable: WORKBOOK_SUBJECT, else the grader's own name with _subject for
// _grader, in its folder.
std::string subject_path() {
  if (const char* chosen = std::getenv("WORKBOOK_SUBJECT"); chosen && *chosen) return chosen;
  std::string path = self_path();
  const std::size_t at = path.rfind("_grader");
  if (at != std::string::npos) path.replace(at, 7, "_subject");
  return path;
}

int seconds_per_call() {
  const char* chosen = std::getenv("WORKBOOK_SUBJECT_TIMEOUT");
  const int seconds = chosen ? std::atoi(chosen) : 0;
  return seconds > 0 ? seconds : 30;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(sig);
  }
}

// The running subject: its process and the pipes to it; and the thread that copies what it
// prints to the grader's standard output.
class Link {
 public:
  ~Link() { stop(); }

  Frame exchange_many(const Frame& call) {
    std::lock_guard<std::mutex> hold(mutex_);
    return ask(call, "many calls at once");
  }

  Frame exchange(const Frame& call, const std::string& shown) {
    std::lock_guard<std::mutex> hold(mutex_);
    // A function of the exercise is a function of its arguments: each distinct call is asked
    // once (the checks ask many again: every lane of every case of a few thousand variants).
    std::string key(reinterpret_cast<const char*>(&call.function), sizeof call.function);
    key += call.bytes;
    if (const auto known = answers_.find(key); known != answers_.end()) return known->second;
    Frame result = ask(call, shown);
    if (answers_.size() < kRememberedAnswers) answers_.emplace(std::move(key), result);
    return result;
  }

 private:
  static constexpr std::size_t kRememberedAnswers = 1 << 22;

  Frame ask(const Frame& call, const std::string& shown) {
    if (pid_ <= 0) start(shown);
    if (!send(calls_, call)) fail(shown);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(seconds_per_call());
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd ready{results_, POLLIN, 0};
      const int n = left.count() > 0 ? poll(&ready, 1, static_cast<int>(left.count())) : 0;
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) {
        stop();
        throw Fault(shown + " did not return within " + std::to_string(seconds_per_call()) +
                        " s: the grader stopped your code.",
                    "a loop that never ends is the usual cause (WORKBOOK_SUBJECT_TIMEOUT sets the "
                    "limit in seconds).");
      }
      Frame got;
      if (!receive(results_, got)) fail(shown);
      if (got.kind == Kind::kCall) {
        answer(got, shown);
        continue;
      }
      if (got.kind == Kind::kThrew) {
        const std::string& bytes = got.bytes;
        const std::size_t nul = bytes.find('\0');
        const std::string type = nul == std::string::npos ? "" : bytes.substr(0, nul);
        const std::string what = nul == std::string::npos ? bytes : bytes.substr(nul + 1);
        throw Fault(shown + " threw an exception: " + what,
                    "a function of the exercise returns its answer; it throws nothing.", type,
                    what);
      }
      return got;
    }
  }

  // A call back from the subject: one of the grader's functions of the interface.
  void answer(Frame& call, const std::string& shown) {
    Frame result;
    result.kind = Kind::kResult;
    result.function = call.function;
    for (std::size_t i = 0; i < answered_count; ++i) {
      if (answered_table[i].function != call.function) continue;
      if (answered_table[i].answer(call, result) && call.consumed() && send(calls_, result)) {
        return;
      }
      break;
    }
    stop();
    throw Fault("While " + shown + " ran, your code sent the grader a call it does not answer.",
                "your code must not write to file descriptors 3 and 4, the grader's channel.");
  }

  void start(const std::string& shown) {
    int calls[2], results[2], output[2];
    if (pipe2(calls, O_CLOEXEC) != 0 || pipe2(results, O_CLOEXEC) != 0 ||
        pipe2(output, O_CLOEXEC) != 0) {
      throw Fault("The grader could not start your code for " + shown + ": " + std::strerror(errno),
                  "this is the machine's fault, not yours: run the checks again.");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, calls[0], kCallsFd);
    posix_spawn_file_actions_adddup2(&actions, results[1], kResultsFd);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const std::string subject = subject_path();
    std::vector<std::string> words;
    if (const char* wrapper = std::getenv("WORKBOOK_SUBJECT_WRAPPER"); wrapper && *wrapper) {
      words.push_back(wrapper);
    }
    words.push_back(subject);
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const int error = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(calls[0]);
    close(results[1]);
    close(output[1]);
    calls_ = calls[1];
    results_ = results[0];
    if (error != 0) {
      pid_ = 0;
      close(output[0]);
      stop();
      throw Fault("The grader could not start your code (" + subject + "): " + std::strerror(error),
                  "build it again (meson test builds it); if it is there, this is the machine's "
                  "fault, not yours.");
    }
    signal(SIGPIPE, SIG_IGN);  // a subject gone is told by the reads, not by a signal
    draining_ = false;
    printer_ = std::thread(copy_output, output[0], &draining_);
  }

  // Copies what the subject prints to the grader's standard output, the first
  // kShownOutputBytes of it in a whole run, until the subject has ended (`*draining`) and
  // nothing more is there to read (a process the subject left behind may hold the pipe open).
  static void copy_output(int fd, const std::atomic<bool>* draining) {
    static std::size_t shown = 0;
    char buffer[4096];
    for (;;) {
      pollfd ready{fd, POLLIN, 0};
      const int waiting = poll(&ready, 1, 50);
      if (waiting < 0 && errno == EINTR) continue;
      if (waiting <= 0) {
        if (*draining) break;
        continue;
      }
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        break;
      }
      const std::size_t keep =
          shown >= kShownOutputBytes ? 0 : std::min<std::size_t>(n, kShownOutputBytes - shown);
      if (keep > 0) write_all(STDOUT_FILENO, buffer, keep);
      if (keep < static_cast<std::size_t>(n) && shown < kShownOutputBytes + 1) {
        const char note[] = "\n[what your code printed beyond 1 MiB is left out]\n";
        write_all(STDOUT_FILENO, note, sizeof note - 1);
        shown = kShownOutputBytes + 1;
      } else {
        shown += keep;
      }
    }
    close(fd);
  }

  // The subject ended while a call waited: say how.
  [[noreturn]] void fail(const std::string& shown) {
    const int status = stop();
    if (killed_) {
      throw Fault("Your code stopped answering the grader while " + shown + " ran.",
                  "your code must not close or write to file descriptors 3 and 4, the grader's "
                  "channel.");
    }
    if (WIFSIGNALED(status)) {
      throw Fault("Your code crashed (" + signal_name(WTERMSIG(status)) + ") while " + shown +
                      " ran; the next check starts your code again.",
                  WTERMSIG(status) == SIGFPE
                      ? "an integer division by zero in your code is the usual cause."
                      : "your code read or wrote memory it does not own (an index out of "
                        "range, a null pointer), or aborted (a failed assert()).");
    }
    if (WIFEXITED(status)) {
      throw Fault("Your code called exit(" + std::to_string(WEXITSTATUS(status)) + ") while " +
                      shown + " ran.",
                  "return from your function instead; a function of the exercise must not end "
                  "the program.");
    }
    throw Fault("Your code stopped answering the grader while " + shown + " ran.",
                "your code must not close or write to file descriptors 3 and 4, the grader's "
                "channel.");
  }

  // Stops the subject and waits for it; its wait status (0 if none ran). `killed_` says whether
  // it had to be killed (it did not end by itself within a tenth of a second).
  int stop() {
    if (calls_ >= 0) close(calls_);
    if (results_ >= 0) close(results_);
    calls_ = results_ = -1;
    int status = 0;
    killed_ = false;
    if (pid_ > 0) {
      pid_t ended = 0;
      for (int i = 0; i < 50 && (ended = waitpid(pid_, &status, WNOHANG)) == 0; ++i) {
        usleep(2000);
      }
      if (ended == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        killed_ = true;
      }
    }
    pid_ = 0;
    draining_ = true;
    if (printer_.joinable()) printer_.join();
    return status;
  }

  std::mutex mutex_;
  std::unordered_map<std::string, Frame> answers_;
  pid_t pid_ = 0;
  int calls_ = -1, results_ = -1;
  bool killed_ = false;
  std::atomic<bool> draining_{false};
  std::thread printer_;
};

Link& link() {
  static Link the_link;
  return the_link;
}

// The judge's definitions of the student's functions, and their numbers.
std::vector<std::pair<void (*)(), std::uint32_t>>& numbers() {
  static std::vector<std::pair<void (*)(), std::uint32_t>> all;
  return all;
}

}  // namespace

void register_function(void (*fn)(), std::uint32_t number) {
  numbers().push_back({fn, number});
}

int function_number(void (*fn)()) {
  for (const auto& [known, number] : numbers()) {
    if (known == fn) return static_cast<int>(number);
  }
  return -1;
}

std::string answers_of_many(const Frame& call, std::size_t count, std::size_t result_bytes) {
  Frame results = link().exchange_many(call);
  if (results.bytes.size() != count * result_bytes) {
    throw Fault("many calls at once", "");
  }
  return std::move(results.bytes);
}

void answer_calls_back(const Answer* table, std::size_t count) {
  answered_table = table;
  answered_count = count;
}

Frame round_trip(const Frame& call, const std::string& shown) {
  return link().exchange(call, shown);
}

}  // namespace grader::subject
