/// @file smem_counters.hpp
/// @brief Shared-memory hardware counters of one kernel launch, read in-process through the
/// CUPTI Range Profiler.
///
/// The counters are those Nsight Compute reports for shared memory: wavefronts and instructions
/// of shared loads and stores (ldmatrix included in the load wavefronts), ldmatrix instructions,
/// and the bank-conflict counters. They need compute capability 7.5 or newer and permission to
/// read GPU performance counters. When either is missing, counters_available() says so and how
/// to fix it, and measure_smem_counters() throws CountersUnavailable: callers fall back to
/// other checks and never report a number that was not measured.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpu {

/// What one kernel launch did in shared memory, summed over the whole grid.
struct SmemCounters {
  double load_wavefronts = 0;     ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  double store_wavefronts = 0;    ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  double load_instructions = 0;   ///< smsp__sass_inst_executed_op_shared_ld.sum (warp-level)
  double store_instructions = 0;  ///< smsp__sass_inst_executed_op_shared_st.sum (warp-level)
  double ldsm_instructions = 0;   ///< smsp__sass_inst_executed_op_ldsm.sum (ldmatrix)
  double load_conflicts = 0;      ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  double store_conflicts = 0;     ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  /// smsp__sass_inst_executed_op_ldgsts.sum: cp.async instructions (warp-level), whose writes to
  /// shared memory the store counters above do not see. -1 before compute capability 8.0.
  double async_copy_instructions = -1;
  /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum, Nsight Compute's bank
  /// conflicts of cp.async. It read 0 on the H200 for every layout, padded tiles whose cp.async
  /// took 10 wavefronts where 4 would do included: judge cp.async by async_copy_wavefronts.
  /// -1 before compute capability 8.0.
  double async_copy_conflicts = -1;
  /// smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum: the shared-memory
  /// wavefronts of cp.async's writes (Nsight Compute's "Shared Store From Global" wavefronts;
  /// the load and store wavefronts above do not see them). -1 before compute capability 8.0 or
  /// where the profiler does not offer the metric.
  double async_copy_wavefronts = -1;
};

/// Counters cannot be read here; what() says why and how to fix it.
class CountersUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Whether counters can be read on the current GPU.
struct CounterAvailability {
  bool available = false;  ///< True when measure_smem_counters() can work.
  std::string reason;      ///< Why not, with the fix, when not available.
};

/// Tries the profiler once (on the current device, creating its context if needed) and caches
/// the answer.
///
/// Maintainers running a grader under another profiler (Nsight Compute, which cannot share the
/// GPU's counters with this one) set WORKBOOK_COUNTERS=launch-only: then counters are said to be
/// available, and every measurement runs its launches once, as they are (so the profiler sees
/// them), and throws CountersUnavailable: no check that counts can pass.
const CounterAvailability& counters_available();

/// Runs `launch_one_kernel`, which must launch exactly one kernel, under the Range Profiler and
/// returns that launch's counters. CUPTI replays the kernel as many times as the counters need
/// (kernel replay saves and restores device memory), so the kernel must not depend on host
/// state that changes between replays. Throws CountersUnavailable when counters cannot be read
/// and std::runtime_error when the callback launched no kernel or more than one.
SmemCounters measure_smem_counters(const std::function<void()>& launch_one_kernel);

/// Like measure_smem_counters() for `launches` kernels at once: calls `launch_kernel(i)` for
/// i = 0 .. launches-1, each of which must launch exactly one kernel, and returns the counters
/// of each launch in that order. One profiler session serves them all, which is much faster than
/// one session a launch (the bank-model validator measures hundreds of requests this way).
/// Throws std::runtime_error when the callbacks launched another number of kernels.
std::vector<SmemCounters> measure_smem_counters_each(int launches,
                                                     const std::function<void(int)>& launch_kernel);

/// What one kernel launch did in global memory through the load/store pipe (ld.global and
/// st.global, and cp.async's reads of global memory, which counted exactly its bytes' sectors on
/// an H100; TMA and atomics are not counted), summed over the whole grid: requests
/// are warp-level instructions, sectors the 32-byte pieces of memory they touched, counted at
/// the L1 whether they hit a cache or not. A warp reading 32 consecutive floats makes 1 request
/// of 4 sectors; reading 32 floats 128 bytes apart, 1 request of 32 sectors.
struct GlobalTraffic {
  double load_sectors = 0;    ///< l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  double load_requests = 0;   ///< l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  double store_sectors = 0;   ///< l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  double store_requests = 0;  ///< l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
};

/// Like measure_smem_counters(), for the global traffic of the one kernel `launch_one_kernel`
/// launches (a profiler session of its own). Throws CountersUnavailable when counters cannot be
/// read (counters_available() says why).
GlobalTraffic measure_global_traffic(const std::function<void()>& launch_one_kernel);

/// measure_global_traffic() where counters can be read; elsewhere nothing, after printing why
/// and that `unjudged` (what the count would have judged) is not judged.
std::optional<GlobalTraffic> global_traffic_where_counted(
    const std::function<void()>& launch_one_kernel, const std::string& unjudged);

/// @cond INTERNAL
// What the counters' two sources (this session API and the SASS metrics, source_counters.hpp)
// share: a failed CUPTI call (code: a CUptiResult) thrown as CountersUnavailable where it means
// counters cannot be read here, the current CUDA context (a CUcontext), created if none, and
// the launch-only switch.
namespace counters_detail {
void check_cupti(int code, const char* call);
void* current_context();
// WORKBOOK_COUNTERS=launch-only (counters_available()): launches run, nothing is counted.
bool launch_only();
[[noreturn]] void launched_only();  // after those launches: waits for them, then throws
}  // namespace counters_detail
/// @endcond

}  // namespace gpu
