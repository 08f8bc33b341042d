/// @file source_counters.hpp
/// @brief A kernel's shared memory line by line: each shared-memory instruction's measured
/// wavefronts per request beside its source line and, where the line says which request it
/// makes, the bank model's figure.
///
/// The whole-kernel counters (smem_counters.hpp) say that a kernel has excess wavefronts; this
/// says which line of it has them, as Nsight Compute's source view does, inside the grader. The
/// counts come from CUPTI's SASS metrics (each instruction patched to count itself, one run of
/// the kernel), the lines from the kernels' own build (`-lineinfo`), read from the cubin that
/// ran.
///
/// A line tells the model its request in a comment, on the line or alone on the line above it,
/// with the analyser's arguments (docs/analyzer.md):
///
///     tile[threadIdx.x][threadIdx.y] = v;  // bank model: --store 't*132'
///
/// is lane t of warp 0 storing 4 bytes at byte t*132 of the tile. The table then prints the
/// model's wavefronts per request beside the measured ones, and marks the line where they
/// differ: the comment does not describe what the line does, or the lanes of other warps
/// differ from warp 0's.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"

namespace gpu {

/// One shared-memory instruction of a kernel as the GPU executed it, summed over the grid.
struct InstructionCount {
  std::string function;          ///< The kernel's (mangled) name.
  std::uint32_t pc_offset = 0;   ///< Byte offset of the instruction in its function.
  std::string op;                ///< "load", "store", "ldmatrix" or "cp.async".
  double requests = 0;           ///< Warp-level executions (smsp__sass_inst_executed).
  double wavefronts = 0;         ///< Its shared-memory wavefronts.
  double ideal_wavefronts = -1;  ///< The wavefronts without conflicts; -1 where not counted.
  std::string file;              ///< Its source file (as the build named it); "" if unknown.
  int line = 0;                  ///< Its source line; 0 if unknown.
};

/// A source line, as a -lineinfo build records it.
struct SourcePlace {
  std::string file;  ///< The file as the compiler saw it, joined to its directory when relative.
  int line = 0;      ///< The line, from 1.
};

/// Where the instruction at byte `pc_offset` of `function` (a mangled name) in `cubin` (an ELF
/// image built with -lineinfo) came from. Nothing when the cubin has no line for it or no such
/// function.
std::optional<SourcePlace> source_place(const std::string& cubin, const std::string& function,
                                        std::uint32_t pc_offset);

/// The CUDA ELF images (cubins) that `bytes` (a fatbin, or a program that embeds fatbins)
/// holds uncompressed, found by their headers.
std::vector<std::string> cubins_in(const std::string& bytes);

/// Runs `launch_one_kernel` (one kernel launch) once with every instruction of the kernel
/// counting itself (CUPTI SASS metrics) and returns its shared-memory instructions in the order
/// of their addresses, each placed on its source line by the cubin that ran (its CRC), found in
/// `kernels_file` (the fatbin a judge loads its kernels from) or in this program (-lineinfo
/// builds). Throws CountersUnavailable (smem_counters.hpp) where the GPU, driver or
/// permissions do not allow it, std::runtime_error when the callback launched no kernel.
/// Instructions are left without a line where neither holds the build that ran;
/// `no_lines_why`, where given, then says why ("" when the lines are known).
std::vector<InstructionCount> measure_instruction_counts(
    const std::function<void()>& launch_one_kernel, const std::string& kernels_file,
    std::string* no_lines_why = nullptr);

/// The table a student reads: one row per source line and kind of access (the instructions of
/// one line summed), with the instructions' count, requests, measured wavefronts per request,
/// the ideal, and the model's figure where the line (or the comment line above it) carries a
/// `bank model:` comment; then the line's text. Rows whose wavefronts per request exceed the
/// ideal or differ from the model are marked. Source files are read from disk, and only inside
/// `readable_folders` (by their real paths): a `#line` directive can name any file, and the
/// table must print none that the hand-out does not hold. A file outside them, or that cannot
/// be read, shows its name and line alone. Ends with a line break.
std::string shared_lines_table(const std::vector<InstructionCount>& counts,
                               const std::vector<std::string>& readable_folders);

/// The `bank model:` comment of line `line` (1-based) of a source file read as `lines`: the
/// text after the marker, on the line itself or on the line above where that line holds nothing
/// but the comment. "" where there is none.
std::string bank_model_comment(const std::vector<std::string>& lines, int line);

/// The request a `bank model:` comment gives: its words, split as a shell would, read as the
/// analyser's arguments. Throws what smem::parse_access_arguments throws.
smem::WarpRequest commented_request(const std::string& comment);

/// The chapter's kernels file beside the running program (`<program's folder>/NAME`).
std::string beside_this_program(const std::string& name);

/// Measures `launch_one_kernel` and renders its table, or one line saying why there is none
/// (no counters here, no kernels file): what a failed counters check shows under its message.
std::string shared_lines_or_why(const std::function<void()>& launch_one_kernel,
                                const std::string& kernels_file,
                                const std::vector<std::string>& readable_folders);

}  // namespace gpu
