/// @file session.hpp
/// @brief What the graders' main (grader_main.cpp) and its listener (grader_listener.cpp) share
/// of a run: where its reports go, its record, and how a run that stops early is told.
#pragma once

#include <string>

namespace grader::session {

// Plain values, which a signal handler may read. For the compact report, standard output (file
// descriptor 1, so that std::cout, Catch2 and the printf of the code under test all land there)
// is the details file, and the report is written to `report_fd`, a copy of the original
// standard output.
extern bool compact;            ///< the compact report is printed
extern int report_fd;           ///< where it goes
extern int unnamed_details_fd;  ///< details in an unnamed file, copied after the report, or -1
extern std::string program;     ///< argv[0]
extern std::string mode;        ///< argv[1]

/// Opens the record (grader/harness/record.hpp) at `path` and writes its first line, from the
/// run as recorder() holds it; says why it cannot, or returns an empty string.
std::string open_record(const std::string& path);
/// Closes the record with its last line: the run finished.
void end_record();
/// From now on, a run that has not ended within `seconds` is stopped, its report printed (a
/// kernel that hangs in the GPU checks).
void arm_watchdog(int seconds);
/// For atexit(): a program that called exit() inside a check says so, on standard error (the
/// whole report) and in the compact report and the record.
void on_exit_inside_check();
/// The compact report of the run as recorded, once: at the end, or where the run stops early.
void write_compact_report();
/// The closing summary of the whole report: one line per check.
void print_summary();
/// Waits for the GPU lock the grading tool names (WORKBOOK_GPU_LOCK: class grading starts the
/// next chapters' graders while one checks) and says how long it waited; returns why the lock
/// could not be taken, or an empty string.
std::string take_gpu_lock(const char* path);
/// Lets the next grader's checks start: this one's are done.
void release_gpu_lock();

}  // namespace grader::session
