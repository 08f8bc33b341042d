// The graders' main: `<grader> host|gpu|lesson|reference|device|cases [--min-sm NN]
// [--record PATH] [Catch2 options]`, each mode as usage() says (lesson and reference are the
// maintainers': the test cases tagged [lesson] and [reference]; `cases` writes
// grader::variant::list_cases). Exit codes follow meson test: 0 all passed, 1 something failed,
// 77 GPU checks skipped because no usable GPU is there.
//
// The host and GPU checks run for a person (no -r or -o) print the compact report
// (grader/harness/report.hpp) and send the whole one, with all the program prints, to a details
// file; docs/instructors/chapters.md ("What a student reads first") says where each goes, and
// when the whole report stays in place. `--record PATH` writes the run's record
// (grader/harness/record.hpp). WORKBOOK_GPU_LOCK names a file the GPU checks lock (flock) from
// their first check to their last: class grading runs the next chapters' graders while one
// checks, and the lock keeps their timed and counted checks one at a time. Catch2 v2's
// implementation is compiled here, unless the build links the one Debian and Ubuntu ship compiled
// (WORKBOOK_CATCH2_COMPILED: see the top-level meson.build). The listener that records the checks
// is grader_listener.cpp.
#if !defined(WORKBOOK_CATCH2_COMPILED)
#define CATCH_CONFIG_RUNNER
#endif
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/gpu_info.hpp"
#include "common/cuda/kernel_module.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/measurements.hpp"
#include "grader/harness/report.hpp"
#include "grader/harness/session.hpp"
#include "grader/harness/variant.hpp"

#if defined(WORKBOOK_CATCH2_COMPILED)
// Catch2's own main, from the packaged library, renamed by the build (objcopy): it runs
// Catch::Session().run(argc, argv), which this file cannot name (Catch2 v2's header declares
// Session only where it compiles the implementation).
extern "C" int workbook_packaged_catch2_main(int argc, char** argv);
#endif

namespace {

using grader::report::recorder;
namespace session = grader::session;

constexpr int kExitSkip = 77;
constexpr int kDefaultGpuTimeoutSeconds = 240;

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
      << " host|gpu|lesson|reference|device [--min-sm NN] [--record PATH] [Catch2 options]\n"
      << "  host       checks that need no GPU (bank-model predictions, layouts)\n"
      << "  gpu        checks on the GPU (correctness, measured conflicts, speed)\n"
      << "  lesson     maintainers: the lesson's figures, the answer key, and the thresholds\n"
      << "             against the H200 measurements\n"
      << "  reference  maintainers: the reference solution's own GPU checks\n"
      << "  device     whether the GPU checks could run here (exit 0), or why not (exit 77)\n"
      << "  cases      the graded cases of this variant (WORKBOOK_VARIANT, else the hand-out's)\n"
      << "The host and GPU checks print a compact report and write the whole one to\n"
      << "<folder of the grader>/feedback/<grader>-<mode>.txt (WORKBOOK_FEEDBACK_FILE: another\n"
      << "file; WORKBOOK_FEEDBACK=full: the whole report in place); --record PATH: the run's\n"
      << "record, one JSON object a line (grader/harness/record.hpp).\n";
  return 2;
}

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
}

// "chNN" for chapter NN's graders (chNN_slug_grader, chNN_wrong_...), else the program's name.
std::string chapter_of(const std::string& program) {
  const std::string name = base_name(program);
  const bool chapter = name.size() > 5 && name.compare(0, 2, "ch") == 0 && name[4] == '_' &&
                       std::isdigit(static_cast<unsigned char>(name[2])) &&
                       std::isdigit(static_cast<unsigned char>(name[3]));
  return chapter ? name.substr(0, 4) : name;
}

std::string executable_path(const char* argv0) {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string(argv0);
}

// The details file's path as the report shows it: from the workbook's folder, where the
// README's commands run, when it lies inside it.
std::string shown_path(const std::string& path) {
  const std::string root = std::string(WORKBOOK_SOURCE_ROOT) + "/";
  return path.compare(0, root.size(), root) == 0 ? path.substr(root.size()) : path;
}

// Standard output becomes the details file (else an unnamed temporary file, copied after the
// report); false where neither can be had, and the whole report stays in place.
bool send_details_to_file(const char* argv0, const std::string& mode) {
  std::string path;
  if (const char* chosen = std::getenv("WORKBOOK_FEEDBACK_FILE"); chosen && *chosen) {
    path = chosen;
  } else {
    const std::string exe = executable_path(argv0);
    const std::string folder = exe.substr(0, exe.rfind('/') + 1) + "feedback";
    mkdir(folder.c_str(), 0755);  // there already, or not makeable: the open below says
    // A variant graded on purpose (WORKBOOK_VARIANT) has a file of its own: the maintainers'
    // tests grade several at once.
    const char* variant = std::getenv("WORKBOOK_VARIANT");
    path = folder + "/" + base_name(exe) + "-" + mode +
           (variant && *variant ? std::string("-variant-") + variant : std::string()) + ".txt";
  }
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  grader::report::Run& run = recorder().run();
  if (fd >= 0) {
    run.details_path = shown_path(path);
  } else {
    run.details_missing =
        "the details file " + shown_path(path) + " could not be written: " + std::strerror(errno);
    std::FILE* unnamed = std::tmpfile();  // kept open to the end
    if (unnamed == nullptr) return false;
    fd = fileno(unnamed);
    session::unnamed_details_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (session::unnamed_details_fd < 0) return false;
  }
  std::fflush(stdout);
  session::report_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (session::report_fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
    session::report_fd = STDOUT_FILENO;
    return false;
  }
  if (session::unnamed_details_fd < 0) close(fd);
  // Line by line into the file, so that a hang or a crash loses nothing printed.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  return true;
}

// How the GPU checks end where they cannot run, with the status to exit with: in a few lines,
// for a person (in the compact report, after the run's first line, wrapped to the screen).
int skip_gpu_checks(const std::string& reason, bool compact) {
  const grader::report::Run& run = recorder().run();
  std::vector<std::string> lines{
      "SKIP: GPU checks not run: " + reason,
      "The host checks (meson test --suite host) still grade your predictions."};
  if (compact) {
    lines.insert(lines.begin(), run.chapter + " GPU checks, " + run.variant +
                                    ": skipped, as no usable GPU is here.");
  }
  for (const std::string& line : lines) {
    const auto rows =
        compact ? grader::report::wrap(line, 80, "", "  ") : std::vector<std::string>{line};
    for (const std::string& row : rows) std::cout << row << "\n";
  }
  return kExitSkip;
}

}  // namespace

// Defined by a judge, the grader that calls the student's functions in the subject
// (grader/harness/subject_link.hpp) and holds none of the student's code: it runs the host,
// lesson and GPU checks; the maintainers' reference checks are the GPU grader's, the program
// beside it named <chapter>_gpu_grader (the checks and the exercise in one program).
extern "C" const char* workbook_judge_gpu_grader() __attribute__((weak));
// Defined by a judge built where a GPU may run its checks: the file beside it that holds the
// exercise's kernels, compiled for the device alone, which it loads and launches.
extern "C" const char* workbook_judge_kernels() __attribute__((weak));

namespace {

// In a judge, the reference checks are the GPU grader's, and so are the GPU checks of a build
// without a kernels file: runs it in this process's place. Returns only where there is none (a
// build that found no GPU, or a student's, leaves it out), with the status to exit with.
int hand_gpu_modes_over(char** argv) {
  const std::string self = executable_path(argv[0]);
  std::string path = self.substr(0, self.rfind('/') + 1) + workbook_judge_gpu_grader();
  if (const char* chosen = std::getenv("WORKBOOK_GPU_GRADER"); chosen && *chosen) path = chosen;
  execv(path.c_str(), argv);
  return skip_gpu_checks("this build has no GPU grader (" + path +
                             "): it found no GPU when it was configured; configure it on a "
                             "machine with one.",
                         false);
}

}  // namespace

int main(int argc, char** argv) {
#if defined(WORKBOOK_FEEDBACK_EXAM)
  unsetenv("WORKBOOK_LINES_TSV");  // an exam shows no counted figure, in a report or in a file
#endif
  const bool judge = workbook_judge_gpu_grader != nullptr;
  const bool runs_kernels = workbook_judge_kernels != nullptr;
  const std::string chosen = argc >= 2 ? argv[1] : "";
  if (judge && ((chosen == "gpu" && !runs_kernels) || chosen == "reference")) {
    return hand_gpu_modes_over(argv);
  }
  if (chosen != "host" && chosen != "gpu" && chosen != "lesson" && chosen != "reference" &&
      chosen != "device" && chosen != "cases") {
    return usage(argv[0]);
  }
  if (chosen == "cases") {
    return argc == 2 ? grader::variant::list_cases(std::cout) : usage(argv[0]);
  }
  if (chosen == "device") {
    const int sm = argc == 4 && std::strcmp(argv[2], "--min-sm") == 0 ? std::atoi(argv[3]) : 75;
    const gpu::GpuInfo info = gpu::detect_gpu(sm / 10, sm % 10);
    std::cout << (info.usable ? "GPU checks can run on " + info.describe()
                              : "GPU checks cannot run: " + info.reason)
              << "\n";
    return info.usable ? 0 : kExitSkip;
  }
  session::program = argv[0];
  const std::string& run_mode = session::mode = argv[1];
  const bool gpu_mode = run_mode == "gpu" || run_mode == "reference";
  const std::string mode_tag = "[" + run_mode + "]";
  int min_sm = 75;
  // Catch2 options, then test specs; each test spec is narrowed to this mode's tag.
  std::vector<std::string> args{argv[0]};
  std::string record_path;
  bool has_test_spec = false, reporter_given = false;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    reporter_given = reporter_given || arg == "-r" || arg == "--reporter" || arg == "-o" ||
                     arg == "--out" || arg.rfind("--reporter=", 0) == 0 ||
                     arg.rfind("--out=", 0) == 0;
    if (arg == "--min-sm" && i + 1 < argc) {
      min_sm = std::atoi(argv[++i]);
      if (min_sm < 10) return usage(argv[0]);
    } else if (arg == "--record" && i + 1 < argc) {
      record_path = argv[++i];
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
    listing = listing || arg == "--list-tests" || arg == "--list-test-names-only" || arg == "-l" ||
              arg == "-h" || arg == "-?" || arg == "--help" || arg == "--list-tags" ||
              arg == "--list-reporters" || arg == "--list-listeners";
  }
  const char* feedback = std::getenv("WORKBOOK_FEEDBACK");
  const std::string feedback_choice = feedback ? feedback : "";
  if (feedback_choice != "" && feedback_choice != "full" && feedback_choice != "compact") {
    std::cerr << argv[0] << ": WORKBOOK_FEEDBACK is \"" << feedback_choice
              << "\": say full (the whole report in place) or compact (the default)\n";
    return 2;
  }
  bool& compact = session::compact;
  compact = (run_mode == "host" || run_mode == "gpu") && !listing && !reporter_given &&
            feedback_choice != "full";

  // The run as the compact report tells it; a bad WORKBOOK_VARIANT ends the program here.
  grader::report::Run& run = recorder().run();
  run.chapter = chapter_of(argv[0]);
  run.mode = run_mode;
  run.variant = grader::variant::current().brief();
  run.cases = grader::variant::graded_on_text();

  if (!listing && !compact) std::cout << run.cases;
  if (gpu_mode && !listing) {
    const gpu::GpuInfo info = gpu::detect_gpu(min_sm / 10, min_sm % 10);
    if (!info.usable) return skip_gpu_checks(info.reason, compact);
    run.setting.push_back("GPU checks on " + info.describe());
  }
  if (compact) {
    compact = send_details_to_file(argv[0], run_mode);
    std::cout << run.cases;  // the whole report begins as the grader's output always did
  }
  if (gpu_mode && !listing) {
    const std::string& gpu_line = run.setting.back();
    std::cout << gpu_line << "\n";
    grader::set_measurement_gpu(gpu_line.substr(std::strlen("GPU checks on ")));
    if (const char* lock = std::getenv("WORKBOOK_GPU_LOCK"); lock != nullptr && *lock != '\0') {
      if (const std::string why = session::take_gpu_lock(lock); !why.empty()) {
        std::cerr << argv[0] << ": " << why << "\n";
        return 2;
      }
    }
    const char* limit = std::getenv("WORKBOOK_GPU_TIMEOUT");
    session::arm_watchdog(limit ? std::atoi(limit) : kDefaultGpuTimeoutSeconds);
    if (runs_kernels) {
      // WORKBOOK_KERNELS: where official grading built the submission's kernels.
      const std::string self = executable_path(argv[0]);
      std::string path = self.substr(0, self.rfind('/') + 1) + workbook_judge_kernels();
      if (const char* chosen = std::getenv("WORKBOOK_KERNELS"); chosen && *chosen) path = chosen;
      try {
        gpu::load_kernel_module(path);
      } catch (const std::exception& e) {
        std::cout << "FAILED: " << e.what() << "\n";
        return 1;
      }
    }
  }
  if (!record_path.empty() && !listing) {
    if (const std::string why = session::open_record(record_path); !why.empty()) {
      std::cerr << argv[0] << ": " << why << "\n";
      return 2;
    }
  }

  // The recorder was made above, so it outlives this handler (exit() destroys later statics
  // first).
#if defined(WORKBOOK_CATCH2_COMPILED)
  std::atexit(session::on_exit_inside_check);
  // Catch2's main parses the arguments (saying what is wrong with them, if anything, and then
  // running nothing) and runs the checks: what is left of the run is judged as below.
  std::vector<char*> main_arguments;
  for (const char* arg : arg_pointers) main_arguments.push_back(const_cast<char*>(arg));
  main_arguments.push_back(nullptr);
  const int failures =
      workbook_packaged_catch2_main(static_cast<int>(arg_pointers.size()), main_arguments.data());
#else
  Catch::Session catch_session;
  if (const int rc = catch_session.applyCommandLine(static_cast<int>(arg_pointers.size()),
                                                    arg_pointers.data());
      rc != 0) {
    return rc == kExitSkip ? 1 : rc;
  }
  std::atexit(session::on_exit_inside_check);
  const int failures = catch_session.run();
#endif
  alarm(0);
  session::release_gpu_lock();
  if (listing) return 0;  // Catch2 v2 returns the number of checks listed

  if (!gpu::context_lost().empty()) {
    std::cout << "\n*** A kernel crashed (the failure above says which) and the GPU context "
                 "is lost:\n    the GPU checks after it were not run. Find the bad access with\n"
              << "    compute-sanitizer " << argv[0] << " gpu\n";
  }
  if (gpu_mode) grader::write_measurements();
  session::print_summary();
  session::write_compact_report();
  session::end_record();
  return failures == 0 ? 0 : 1;
}
