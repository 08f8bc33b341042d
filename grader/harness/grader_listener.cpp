// The graders' listener: records each check as Catch2 (v2 or v3) reports it (report.hpp's
// recorder), writes each check's line of the record as it ends (record.hpp), and prints the
// compact report at the end of the run or where the run stops early: a crash, exit() inside a
// check, a kernel that hangs (the watchdog).
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // the listener's base classes
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/record.hpp"
#include "grader/harness/report.hpp"
#include "grader/harness/session.hpp"
#include "grader/harness/subject_link.hpp"

namespace grader::session {

bool compact = false;
int report_fd = STDOUT_FILENO;
int unnamed_details_fd = -1;
std::string program;
std::string mode;

namespace {

using report::recorder;

// The check running now, for a program that ends inside it. A plain array, which the signal
// handler may read.
char running_check[512] = "";
bool compact_written = false;
int gpu_timeout_seconds = 0;
bool watchdog_armed = false;

// The record's file, and how many lines of the run's setting it holds.
int record_fd = -1;
std::size_t settings_recorded = 0;

// Each write whole, or as much as the file takes (async-signal-safe).
using subject::write_all;

// A line of the record, after the lines of the setting added since the last one (each line
// with one write: whole, for a run that stops at any point).
void record_line(const std::string& line) {
  if (record_fd < 0) return;
  const std::vector<std::string>& setting = recorder().run().setting;
  for (; settings_recorded < setting.size(); ++settings_recorded) {
    const std::string added = record::setting_line(setting[settings_recorded]);
    write_all(record_fd, added.data(), added.size());
  }
  write_all(record_fd, line.data(), line.size());
}

// The record's last line; nothing is written after it.
void close_record(const std::string& how, const report::Check* stopped = nullptr) {
  record_line(record::end_line(how, stopped));
  if (record_fd >= 0) close(record_fd);
  record_fd = -1;
}

// The details held in an unnamed file, after the compact report (async-signal-safe).
void copy_unnamed_details() {
  if (unnamed_details_fd < 0) return;
  static char buffer[8192];
  off_t at = 0;
  for (ssize_t n; (n = pread(unnamed_details_fd, buffer, sizeof buffer, at)) > 0; at += n) {
    write_all(report_fd, buffer, static_cast<std::size_t>(n));
  }
}

// The report the watchdog prints if a kernel hangs from now on: rendered ahead, as the signal
// handler may only write it. Two buffers, so that the one published is never being written.
constexpr std::size_t kPrerenderedBytes = 1 << 16;
char prerendered[2][kPrerenderedBytes];
std::size_t prerendered_size[2] = {0, 0};
volatile std::sig_atomic_t prerendered_index = -1;

std::string stuck_headline() {
  return "This check did not finish within " + std::to_string(gpu_timeout_seconds) +
         " s: the grader stopped it, and the checks after it did not run.";
}
constexpr const char* kStuckAdvice =
    "a kernel is most likely stuck: look for a loop that never ends, or __syncthreads() inside "
    "a branch that not every thread of the block takes (WORKBOOK_GPU_TIMEOUT sets the limit in "
    "seconds).";

void prerender_stop() {
  if (!compact || !watchdog_armed) return;
  report::Recorder stopped = recorder();
  stopped.stop(stuck_headline(), kStuckAdvice);
  const std::string text = report::render(stopped.run());
  const int next = prerendered_index == 0 ? 1 : 0;
  const std::size_t size = std::min(text.size(), kPrerenderedBytes);
  std::memcpy(prerendered[next], text.data(), size);
  prerendered_size[next] = size;
  prerendered_index = next;
}

void on_watchdog(int) {
  // Only async-signal-safe calls here.
  if (compact && prerendered_index >= 0) {
    write_all(report_fd, prerendered[prerendered_index], prerendered_size[prerendered_index]);
    copy_unnamed_details();
    _exit(1);
  }
  const char message[] =
      "\nGPU checks did not finish in time: a kernel is most likely stuck (a loop that never "
      "ends, or __syncthreads() inside a branch that not every thread of the block takes).\n";
  write_all(STDERR_FILENO, message, sizeof message - 1);
  if (running_check[0] != '\0') {
    const char before[] = "It was stopped in the check \"";
    const char after[] = "\".\n";
    write_all(STDERR_FILENO, before, sizeof before - 1);
    write_all(STDERR_FILENO, running_check, std::strlen(running_check));
    write_all(STDERR_FILENO, after, sizeof after - 1);
  }
  _exit(1);
}

// What to say of a check in which the program crashed (Catch2 reports the signal).
report::Failure crash_words(const std::string& signal) {
  const auto is = [&signal](const char* name) { return signal.rfind(name, 0) == 0; };
  if (is("SIGTERM") || is("SIGINT")) {
    return {"The grader was stopped while this check ran (" + signal +
                "): the checks after it did not run.",
            {},
            "a loop in your code that never ends is the usual cause (meson test stops a test "
            "at its time limit, and Ctrl-C stops it too)."};
  }
  std::string advice = "look for what your code did in this check";
  if (is("SIGSEGV") || is("SIGBUS")) {
    advice =
        "your code read or wrote memory it does not own: an index out of range, or a null "
        "pointer";
  } else if (is("SIGFPE")) {
    advice = "an integer division by zero in your code is the usual cause";
  } else if (is("SIGABRT")) {
    advice = "something in your code aborted the program: a failed assert(), say";
  }
  return {
      "The grader crashed while this check ran (" + signal + "): the checks after it did not run.",
      {},
      advice + ". A debugger shows where: gdb --args " + program + " " + mode};
}

// Records each test case's outcome as Catch2 (v2 or v3) reports it.
#if defined(WORKBOOK_CATCH2_V3)
class SummaryListener : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override { start(info.name); }
  void assertionEnded(const Catch::AssertionStats& stats) override { record_failure(stats); }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (stats.totals.testCases.skipped > 0) recorder().skip("");
    end();
  }
  void testRunEnded(const Catch::TestRunStats&) override { end_of_run(); }
#else
class SummaryListener : public Catch::TestEventListenerBase {
 public:
  using Catch::TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override { start(info.name); }
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    record_failure(stats);
    return true;
  }
  void testCaseEnded(const Catch::TestCaseStats&) override { end(); }
  void testRunEnded(const Catch::TestRunStats&) override { end_of_run(); }
#endif

 private:
  static bool& crashed() {
    static bool crash = false;
    return crash;
  }
  static void start(const std::string& name) {
    recorder().start(name);
    std::snprintf(running_check, sizeof running_check, "%s", name.c_str());
    prerender_stop();
  }
  static void end() {
    // A kernel crashed in this check and lost the GPU context: what to do, with its failure.
    static bool advised = false;
    if (!advised && !gpu::context_lost().empty()) {
      advised = recorder().advise(gpu::context_lost(),
                                  "find the bad access with compute-sanitizer " + program +
                                      " gpu. The crash lost the GPU context, so the GPU checks "
                                      "after this one were not run.");
    }
    recorder().end();
    if (!recorder().run().checks.empty())
      record_line(record::check_line(recorder().run().checks.back()));
    running_check[0] = '\0';
    // What the check printed is in the details file now, should the next one hang.
    std::cout.flush();
    std::fflush(stdout);
    prerender_stop();
  }
  static void record_failure(const Catch::AssertionStats& stats) {
    const Catch::AssertionResult& r = stats.assertionResult;
    if (r.succeeded()) return;
    if (r.getResultType() == Catch::ResultWas::Warning) return;  // GRADER_SKIP notes its own
    const std::string message =
        r.hasMessage() ? std::string(r.getMessage()) : r.getExpressionInMacro();
    if (r.getResultType() == Catch::ResultWas::FatalErrorCondition) {
      const report::Failure words = crash_words(message);
      recorder().stop(words.headline, words.what_to_do);
      crashed() = true;
      return;
    }
    std::vector<std::string> context;
    if (feedback_mode() != FeedbackMode::kExam) {
      // What INFO() said; Catch2 lists the failure's own message there too.
      for (const Catch::MessageInfo& info : stats.infoMessages) {
        if (info.type == Catch::ResultWas::Info) context.push_back(info.message);
      }
      if (!r.hasMessage() && r.hasExpression() &&
          r.getExpandedExpression() != r.getExpressionInMacro()) {
        context.push_back("with expansion: " + r.getExpandedExpression());
      }
    }
    recorder().fail(message, context);
  }
  // After a crash Catch2 ends the run and the program at once: the reports must be out first.
  static void end_of_run() {
    if (!crashed()) return;
    close_record("crashed");
    write_compact_report();
  }
};
CATCH_REGISTER_LISTENER(SummaryListener)

}  // namespace

std::string open_record(const std::string& path) {
  record_fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (record_fd < 0) return "cannot write the record " + path + ": " + std::strerror(errno);
  settings_recorded = recorder().run().setting.size();
  record_line(record::header_line(recorder().run()));
  return "";
}

void end_record() {
  close_record("finished");
}

void arm_watchdog(int seconds) {
  gpu_timeout_seconds = seconds;
  std::signal(SIGALRM, on_watchdog);
  watchdog_armed = true;
  alarm(static_cast<unsigned>(seconds));
}

void write_compact_report() {
  if (!compact || compact_written) return;
  compact_written = true;
  std::cout.flush();
  std::fflush(stdout);
  const std::string text = report::render(recorder().run());
  write_all(report_fd, text.data(), text.size());
  copy_unnamed_details();
}

void on_exit_inside_check() {
  if (running_check[0] == '\0') return;
  const std::string line = std::string("\nworkbook-grader: exit() was called while the check \"") +
                           running_check + "\" ran\n";
  write_all(STDERR_FILENO, line.data(), line.size());
  recorder().stop(
      "Your code called exit() while this check ran: the grader ended there, and the checks "
      "after it did not run.",
      "return from your function instead; a function of the exercise must not end the "
      "program.");
  close_record("exit", &recorder().run().checks.back());
  write_compact_report();
}

void print_summary() {
  if (recorder().run().checks.empty()) return;
  std::cout << "\n";
  for (const std::string& row : report::summary(recorder().run(), true)) std::cout << row << "\n";
  std::cout << "Each failure is explained in full above. "
            << (compact ? "These"
                        : "Whole log of a meson run: <build>/meson-logs/testlog.txt; these")
            << " checks alone: " << program << " " << mode << "\n";
}

namespace {
// The lock of WORKBOOK_GPU_LOCK while this grader's checks hold the GPU, or -1.
int gpu_lock_fd = -1;
}  // namespace

// Waits for the GPU lock the grading tool names (after this process made its CUDA context, which
// is what the waiting hides), and says how long it waited; the grading tool reads that line to
// tell a grader that never got the GPU from one that ran out of time in its checks. Returns why
// the lock could not be taken, or an empty string.
std::string take_gpu_lock(const char* path) {
  const auto start = std::chrono::steady_clock::now();
  gpu_lock_fd = open(path, O_RDONLY | O_CLOEXEC);
  if (gpu_lock_fd < 0) {
    return std::string("cannot open WORKBOOK_GPU_LOCK (") + path + "): " + std::strerror(errno);
  }
  while (flock(gpu_lock_fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      return std::string("cannot lock WORKBOOK_GPU_LOCK (") + path + "): " + std::strerror(errno);
    }
  }
  const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
  char line[128];
  std::snprintf(line, sizeof line, "GPU checks start: the GPU is this grader's after %.1f s\n",
                waited.count());
  std::cout << line << std::flush;
  return "";
}

// The next grader's checks may start: this one's are done (its exit, the context's teardown
// included, runs beside them).
void release_gpu_lock() {
  if (gpu_lock_fd >= 0) close(gpu_lock_fd);
  gpu_lock_fd = -1;
}

}  // namespace grader::session

namespace grader {

void note_skip(const std::string& reason) {
  report::recorder().skip(reason);
}

}  // namespace grader

// A call the student's code did not answer (grader/harness/subject_link.hpp) fails its check as
// GRADER_FAIL does: what went wrong is the headline, what to look for the hint, on the compact
// screen, in the details and in the record alike.
CATCH_TRANSLATE_EXCEPTION(const grader::subject::Fault& fault) {
  const grader::Feedback feedback = grader::Feedback(fault.what()).hint(fault.advice());
  grader::report::attach_to_next_failure(feedback);
  std::cout << feedback.details() << std::flush;
  return feedback.headline();
}
