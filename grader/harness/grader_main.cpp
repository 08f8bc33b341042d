// The graders' main: `<grader> host [catch args]` runs the checks that need no GPU,
// `<grader> gpu [--min-sm NN] [catch args]` the GPU checks, and, in a maintainers' build,
// `<grader> lesson` the checks of the chapter's lesson, answer key and committed measurements
// (test cases tagged [lesson]) and `<grader> reference [--min-sm NN]` the reference solution's
// own GPU checks (tagged [reference]: bars and experiments that need kernels a hand-out must not
// hold). `<grader> device [--min-sm NN]` only says whether the GPU checks could run here (the
// grading tool asks before it grades with the GPU). `<grader> cases` lists the graded cases of
// the run's variant (grader/harness/variant.hpp), one per line, tab-separated: the check, the
// case, and for a prediction the exercise function, the case's arguments and the exercise's
// value. Exit codes follow meson test: 0 all passed,
// 1 something failed, 77 GPU checks skipped because no usable GPU is there.
#define CATCH_CONFIG_RUNNER
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/gpu_info.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/variant.hpp"

namespace {

// One line per test case for the closing summary: what was checked, and how it ended.
struct CheckResult {
  std::string name;
  std::string reason;  // first failure's message, or why it was skipped
  bool failed = false;
  bool skipped = false;
};
std::vector<CheckResult>& results() {
  static std::vector<CheckResult> all;
  return all;
}

// The check running now, for a program that ends inside it (exit() in a student's function):
// the grading tool reads the line on_exit_inside_check() writes to say so. A copy of the name,
// since exit() destroys the results above before the handler runs.
char running_check[512] = "";

void on_exit_inside_check() {
  if (running_check[0] == '\0') return;
  const std::string line = std::string("\nworkbook-grader: exit() was called while the check \"") +
                           running_check + "\" ran\n";
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 150) line = line.substr(0, 147) + "...";
  return line;
}

// Collects each test case's outcome as Catch2 (v2 or v3) reports it.
#if defined(WORKBOOK_CATCH2_V3)
class SummaryListener : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override { start(info.name); }
  void assertionEnded(const Catch::AssertionStats& stats) override { record(stats); }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    if (stats.totals.testCases.skipped > 0) results().back().skipped = true;
    running_check[0] = '\0';
  }
#else
class SummaryListener : public Catch::TestEventListenerBase {
 public:
  using Catch::TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override { start(info.name); }
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    record(stats);
    return true;
  }
  void testCaseEnded(const Catch::TestCaseStats&) override { running_check[0] = '\0'; }
#endif

 private:
  static void start(const std::string& name) {
    results().push_back(CheckResult{name, "", false, false});
    std::snprintf(running_check, sizeof running_check, "%s", name.c_str());
  }
  static void record(const Catch::AssertionStats& stats) {
    const Catch::AssertionResult& r = stats.assertionResult;
    if (r.succeeded() || results().empty()) return;
    if (r.getResultType() == Catch::ResultWas::Warning) return;  // GRADER_SKIP notes its own
    CheckResult& c = results().back();
    if (c.failed) return;
    c.failed = true;
    c.reason = first_line(r.hasMessage() ? std::string(r.getMessage()) : r.getExpressionInMacro());
  }
};
CATCH_REGISTER_LISTENER(SummaryListener)

// The closing summary: one line per check, so that the outcome of every exercise stays in view
// however long the pictures above it are (meson shows only the end of a long log).
void print_summary(const char* program, const std::string& mode) {
  if (results().empty()) return;
  int failed = 0, skipped = 0;
  std::cout << "\n==== Summary (" << mode << " checks) ====\n";
  for (const CheckResult& c : results()) {
    const bool skip = c.skipped && !c.failed;
    failed += c.failed ? 1 : 0;
    skipped += skip ? 1 : 0;
    std::cout << (c.failed ? "  FAILED   "
                  : skip   ? "  skipped  "
                           : "  passed   ")
              << c.name << "\n";
    if (c.failed || skip) std::cout << "           " << (skip ? "why: " : "") << c.reason << "\n";
  }
  const std::size_t total = results().size();
  std::cout << total << (total == 1 ? " check: " : " checks: ") << total - failed - skipped
            << " passed, " << failed << " failed, " << skipped << " skipped.\n"
            << "Each failure is explained in full above. Whole log of a meson run: "
               "<build>/meson-logs/testlog.txt; these checks alone: "
            << program << " " << mode << "\n";
}

constexpr int kExitSkip = 77;
constexpr int kDefaultGpuTimeoutSeconds = 240;

void on_watchdog(int) {
  const char message[] =
      "\nGPU checks did not finish in time: a kernel is most likely stuck (a loop that never "
      "ends, or __syncthreads() inside a branch that not every thread of the block takes).\n";
  // Only async-signal-safe calls here.
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  _exit(1);
}

// Catch2 options followed by a value (so the value is not taken for a test spec).
bool takes_value(const std::string& arg) {
  for (const char* option : {"-r", "--reporter", "-o", "--out", "-c", "--section", "-x",
                             "--abort-x", "-w", "--warn", "-d", "--durations", "--order",
                             "--rng-seed", "--use-colour", "--colour-mode", "-v", "--verbosity"}) {
    if (arg == option) return true;
  }
  return false;
}

int usage(const char* program) {
  std::cerr
      << "usage: " << program
      << " host|gpu|lesson|reference|device [--min-sm NN] [Catch2 options]\n"
      << "  host       checks that need no GPU (bank-model predictions, layouts)\n"
      << "  gpu        checks on the GPU (correctness, measured conflicts, speed)\n"
      << "  lesson     maintainers: the lesson's figures, the answer key, and the thresholds\n"
      << "             against the H200 measurements\n"
      << "  reference  maintainers: the reference solution's own GPU checks\n"
      << "  device     whether the GPU checks could run here (exit 0), or why not (exit 77)\n"
      << "  cases      the graded cases of this variant (WORKBOOK_VARIANT, else the hand-out's)\n";
  return 2;
}

// A field of `<grader> cases`: tabs and line breaks would split it.
std::string field(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

int list_cases() {
  const grader::variant::Identity& v = grader::variant::current();
  std::cout << "# " << v.describe() << "\n";
  const grader::variant::ChapterCases* chapter = grader::variant::registered();
  if (chapter == nullptr) return 0;
  for (const grader::variant::GradedCase& c : chapter->cases(v)) {
    std::cout << field(c.check) << '\t' << field(c.text) << '\t' << field(c.declaration) << '\t'
              << field(c.condition) << '\t'
              << (c.answer ? std::to_string(c.answer()) : std::string()) << '\n';
  }
  return 0;
}

// The grader's first lines: whose variant this is, and what it means in this chapter.
void print_variant() {
  const grader::variant::Identity& v = grader::variant::current();
  std::cout << "Graded on " << v.describe() << ".\n";
  if (const grader::variant::ChapterCases* chapter = grader::variant::registered()) {
    const std::string summary = chapter->summary(v);
    if (!summary.empty()) std::cout << summary << (summary.back() == '\n' ? "" : "\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "host") != 0 && std::strcmp(argv[1], "gpu") != 0 &&
                   std::strcmp(argv[1], "lesson") != 0 && std::strcmp(argv[1], "reference") != 0 &&
                   std::strcmp(argv[1], "device") != 0 && std::strcmp(argv[1], "cases") != 0)) {
    return usage(argv[0]);
  }
  if (std::strcmp(argv[1], "cases") == 0) return argc == 2 ? list_cases() : usage(argv[0]);
  if (std::strcmp(argv[1], "device") == 0) {
    const int sm = argc == 4 && std::strcmp(argv[2], "--min-sm") == 0 ? std::atoi(argv[3]) : 75;
    const gpu::GpuInfo info = gpu::detect_gpu(sm / 10, sm % 10);
    std::cout << (info.usable ? "GPU checks can run on " + info.describe()
                              : "GPU checks cannot run: " + info.reason)
              << "\n";
    return info.usable ? 0 : kExitSkip;
  }
  const bool gpu_mode = std::strcmp(argv[1], "gpu") == 0 || std::strcmp(argv[1], "reference") == 0;
  const std::string mode_tag = std::string("[") + argv[1] + "]";
  int min_sm = 75;
  // Catch2 options, then test specs; each test spec is narrowed to this mode's tag.
  std::vector<std::string> args{argv[0]};
  bool has_test_spec = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--min-sm" && i + 1 < argc) {
      min_sm = std::atoi(argv[++i]);
      if (min_sm < 10) return usage(argv[0]);
    } else if (takes_value(arg) && i + 1 < argc) {
      args.push_back(arg);
      args.push_back(argv[++i]);
    } else if (arg[0] != '-') {
      args.push_back(mode_tag + arg);
      has_test_spec = true;
    } else {
      args.push_back(arg);
    }
  }
  if (!has_test_spec) args.push_back(mode_tag);
#if !defined(WORKBOOK_CATCH2_V3)
  // A grader that runs no check must not pass (Catch2 v3 fails such a run by itself).
  args.push_back("--warn");
  args.push_back("NoTests");
#endif
  std::vector<const char*> arg_pointers;
  for (const std::string& arg : args) arg_pointers.push_back(arg.c_str());

  // Listing the checks needs no GPU (the grading tool lists them to know what must report).
  bool listing = false;
  for (const std::string& arg : args) {
    listing = listing || arg == "--list-tests" || arg == "--list-test-names-only" || arg == "-l";
  }
  if (!listing) print_variant();
  if (gpu_mode && !listing) {
    const gpu::GpuInfo info = gpu::detect_gpu(min_sm / 10, min_sm % 10);
    if (!info.usable) {
      std::cout << "SKIP: GPU checks not run: " << info.reason << "\n"
                << "The host checks (meson test --suite host) still grade your predictions.\n";
      return kExitSkip;
    }
    std::cout << "GPU checks on " << info.describe() << "\n";
    grader::set_measurement_gpu(info.describe());
    const char* limit = std::getenv("WORKBOOK_GPU_TIMEOUT");
    std::signal(SIGALRM, on_watchdog);
    alarm(static_cast<unsigned>(limit ? std::atoi(limit) : kDefaultGpuTimeoutSeconds));
  }

  Catch::Session session;
  if (const int rc =
          session.applyCommandLine(static_cast<int>(arg_pointers.size()), arg_pointers.data());
      rc != 0) {
    return rc == kExitSkip ? 1 : rc;
  }
  std::atexit(on_exit_inside_check);
  const int failures = session.run();
  alarm(0);
  if (listing) return 0;  // Catch2 v2 returns the number of checks listed

  if (!gpu::context_lost().empty()) {
    std::cout << "\n*** A kernel crashed (the failure above says which) and the GPU context "
                 "is lost:\n    the GPU checks after it were not run. Find the bad access with\n"
              << "    compute-sanitizer " << argv[0] << " gpu\n";
  }
  if (gpu_mode && !listing) grader::write_measurements();
  print_summary(argv[0], argv[1]);
  return failures == 0 ? 0 : 1;
}

namespace grader {

void note_skip(const std::string& reason) {
  if (results().empty()) return;
  results().back().skipped = true;
  results().back().reason = first_line(reason);
}

}  // namespace grader
