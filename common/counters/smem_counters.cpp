#include "common/counters/smem_counters.hpp"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/counters/smem_access_probe.hpp"
#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {

const char* const kMetrics[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_ldsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};
// cp.async (LDGSTS, compute capability 8.0 and newer): its shared-memory writes are counted
// apart from stores. The conflict counter reads 0 for every layout on the H200, and the shared
// wavefront counters above do not see cp.async.cg's writes; the wavefronts of its writes are
// counted by kAsyncCopyWavefronts (what Nsight Compute reports for LDGSTS).
const char* const kAsyncCopyMetrics[] = {
    "smsp__sass_inst_executed_op_ldgsts.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
};
const char* const kAsyncCopyWavefronts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";

// Global loads and stores of the LSU pipe (ld.global, cp.async's reads and st.global; not TMA or
// atomics) at the L1's tag stage: requests are warp-level instructions, sectors the 32-byte
// pieces of memory they touch, counted whether they hit in a cache or not.
const char* const kGlobalMetrics[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
};

const char* const kPermissionFix =
    "the NVIDIA driver lets only administrators read GPU performance counters "
    "(ERR_NVGPUCTRPERM). Run as root, or allow everyone: put "
    "'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/ "
    "and reload the driver or reboot (check: grep RmProfilingAdminOnly /proc/driver/nvidia/params)";

std::string result_text(CUptiResult code) {
  const char* text = nullptr;
  cuptiGetResultString(code, &text);
  return text ? text : "CUPTI error " + std::to_string(static_cast<int>(code));
}

// Throws the right exception for a failed CUPTI call.
void check_cupti(CUptiResult code, const char* call) {
  if (code == CUPTI_SUCCESS) return;
  switch (code) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      throw CountersUnavailable(std::string("hardware counters are not allowed: ") +
                                kPermissionFix);
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_INITIALIZED:
      throw CountersUnavailable(std::string("hardware counters are not supported here (") + call +
                                ": " + result_text(code) +
                                "); they need a GPU of compute capability 7.5 or newer, not "
                                "virtualised, and a CUPTI that matches the driver");
    default: throw std::runtime_error(std::string(call) + " failed: " + result_text(code));
  }
}
#define CUPTI_CALL(call) check_cupti((call), #call)

// A CUPTI parameter struct, zeroed, with its size set.
template <typename P>
P params(std::size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}

CUcontext current_context() {
  using GetCurrent = CUresult (*)(CUcontext*);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult status{};
  GPU_CHECK(cudaFree(nullptr));  // creates the primary context if there is none yet
  GPU_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000, cudaEnableDefault,
                                             &status));
  if (status != cudaDriverEntryPointSuccess || function == nullptr) {
    throw CountersUnavailable("the driver has no cuCtxGetCurrent entry point");
  }
  CUcontext context = nullptr;
  if (reinterpret_cast<GetCurrent>(function)(&context) != CUDA_SUCCESS || context == nullptr) {
    throw CountersUnavailable("no current CUDA context to profile");
  }
  return context;
}

// Everything the profiler needs that does not change between measurements.
struct Session {
  CUcontext context = nullptr;
  std::vector<const char*> metrics;  // the metrics this session evaluates, in order
  bool optional_added = false;       // make_session's optional metric is the last one
  std::vector<std::uint8_t> config_image;
  CUpti_Profiler_Host_Object* host = nullptr;
};

// A profiler session for `metrics`, plus `optional` where this profiler offers it.
Session make_session(std::vector<const char*> metrics, const char* optional = nullptr) {
  Session out;
  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  CUPTI_CALL(cuptiProfilerInitialize(&init));
  out.context = current_context();
  int device = 0;
  GPU_CHECK(cudaGetDevice(&device));
  out.metrics = std::move(metrics);

  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  CUPTI_CALL(cuptiDeviceGetChipName(&chip));

  auto availability = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = out.context;
  CUPTI_CALL(cuptiProfilerGetCounterAvailability(&availability));
  std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = availability_image.data();
  CUPTI_CALL(cuptiProfilerGetCounterAvailability(&availability));

  auto host = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability_image.data();
  CUPTI_CALL(cuptiProfilerHostInitialize(&host));
  out.host = host.pHostObject;

  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = out.host;
  if (optional != nullptr) {
    // Without the optional metric the others still work.
    std::vector<const char*> with = out.metrics;
    with.push_back(optional);
    add.ppMetricNames = with.data();
    add.numMetrics = with.size();
    if (cuptiProfilerHostConfigAddMetrics(&add) == CUPTI_SUCCESS) {
      out.metrics = with;
      out.optional_added = true;
    }
  }
  if (!out.optional_added) {
    add.ppMetricNames = out.metrics.data();
    add.numMetrics = out.metrics.size();
    CUPTI_CALL(cuptiProfilerHostConfigAddMetrics(&add));
  }
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = out.host;
  CUPTI_CALL(cuptiProfilerHostGetConfigImageSize(&size));
  out.config_image.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = out.host;
  image.configImageSize = out.config_image.size();
  image.pConfigImage = out.config_image.data();
  CUPTI_CALL(cuptiProfilerHostGetConfigImage(&image));
  return out;
}

// The shared-memory session: kMetrics, then kAsyncCopyMetrics where the GPU has them, then
// kAsyncCopyWavefronts where the profiler can count it.
Session& smem_session() {
  static Session s = [] {
    int device = 0, major = 0;
    GPU_CHECK(cudaFree(nullptr));
    GPU_CHECK(cudaGetDevice(&device));
    GPU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    std::vector<const char*> metrics(std::begin(kMetrics), std::end(kMetrics));
    if (major >= 8) {
      metrics.insert(metrics.end(), std::begin(kAsyncCopyMetrics), std::end(kAsyncCopyMetrics));
    }
    return make_session(std::move(metrics), major >= 8 ? kAsyncCopyWavefronts : nullptr);
  }();
  return s;
}

// The global-memory session: kGlobalMetrics, a session of its own so that the shared-memory
// measurements (hundreds of them in the bank model's validation) replay no more passes.
Session& global_session() {
  static Session s = make_session({std::begin(kGlobalMetrics), std::end(kGlobalMetrics)});
  return s;
}

// Enables the range profiler on the context for the lifetime of the object.
class EnabledProfiler {
 public:
  explicit EnabledProfiler(CUcontext context) {
    auto enable =
        params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = context;
    CUPTI_CALL(cuptiRangeProfilerEnable(&enable));
    object_ = enable.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    auto disable =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    disable.pRangeProfilerObject = object_;
    cuptiRangeProfilerDisable(&disable);
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return object_; }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

}  // namespace

const CounterAvailability& counters_available() {
  static const CounterAvailability answer = [] {
    CounterAvailability a;
    if (counters_detail::launch_only()) {
      a.available = true;
      return a;
    }
    try {
      // A real measurement of a kernel with one warp-wide shared store and load: the only proof
      // that counters work is counting them.
      const SmemCounters c = measure_smem_counters(launch_counter_probe);
      if (c.load_instructions != 1 || c.store_instructions != 1 || c.load_wavefronts != 1) {
        a.reason = "the counters read implausible values for a known kernel (" +
                   std::to_string(c.load_instructions) + " load and " +
                   std::to_string(c.store_instructions) + " store instructions, " +
                   std::to_string(c.load_wavefronts) + " load wavefronts; expected 1, 1, 1)";
      } else {
        a.available = true;
      }
    } catch (const CountersUnavailable& e) {
      a.reason = e.what();
    } catch (const std::exception& e) {
      a.reason = std::string("the profiler could not be started: ") + e.what();
    }
    return a;
  }();
  return answer;
}

namespace {

// The values of `s.metrics` for each of `launches` kernels launched by `launch_kernel(i)`.
std::vector<std::vector<double>> measure_each(Session& s, int launches,
                                              const std::function<void(int)>& launch_kernel) {
  if (launches < 1) throw std::invalid_argument("measure_smem_counters_each: no launch to measure");
  EnabledProfiler profiler(s.context);
  // One range more than expected: room to notice an extra launch.
  const std::size_t ranges = static_cast<std::size_t>(launches) + 1;

  auto data_size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data_size.pRangeProfilerObject = profiler.get();
  data_size.pMetricNames = s.metrics.data();
  data_size.numMetrics = s.metrics.size();
  data_size.maxNumOfRanges = ranges;
  data_size.maxNumRangeTreeNodes = ranges;
  CUPTI_CALL(cuptiRangeProfilerGetCounterDataSize(&data_size));
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  auto init_data = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init_data.pRangeProfilerObject = profiler.get();
  init_data.counterDataSize = counter_data.size();
  init_data.pCounterData = counter_data.data();
  CUPTI_CALL(cuptiRangeProfilerCounterDataImageInitialize(&init_data));

  auto config = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = profiler.get();
  config.configSize = s.config_image.size();
  config.pConfig = s.config_image.data();
  config.counterDataImageSize = counter_data.size();
  config.pCounterDataImage = counter_data.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = ranges;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  CUPTI_CALL(cuptiRangeProfilerSetConfig(&config));

  bool all_passes = false;
  for (int attempt = 0; attempt < 16 && !all_passes; ++attempt) {
    auto start =
        params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = profiler.get();
    CUPTI_CALL(cuptiRangeProfilerStart(&start));
    for (int i = 0; i < launches; ++i) launch_kernel(i);
    GPU_CHECK(cudaDeviceSynchronize());
    auto stop =
        params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = profiler.get();
    CUPTI_CALL(cuptiRangeProfilerStop(&stop));
    all_passes = stop.isAllPassSubmitted != 0;
  }
  if (!all_passes) throw std::runtime_error("the profiler did not finish its passes");

  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = profiler.get();
  CUPTI_CALL(cuptiRangeProfilerDecodeData(&decode));

  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  CUPTI_CALL(cuptiRangeProfilerGetCounterDataInfo(&info));
  const std::size_t seen = info.numTotalRanges + decode.numOfRangeDropped;
  if (info.numTotalRanges != static_cast<std::size_t>(launches) || decode.numOfRangeDropped != 0) {
    throw std::runtime_error(
        launches == 1 ? "expected exactly one kernel launch to profile, saw " + std::to_string(seen)
                      : "expected " + std::to_string(launches) +
                            " kernel launches to profile, saw " + std::to_string(seen));
  }

  std::vector<std::vector<double>> out;
  out.reserve(static_cast<std::size_t>(launches));
  for (int i = 0; i < launches; ++i) {
    std::vector<double> values(s.metrics.size());
    auto evaluate = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    evaluate.pHostObject = s.host;
    evaluate.pCounterDataImage = counter_data.data();
    evaluate.counterDataImageSize = counter_data.size();
    evaluate.rangeIndex = static_cast<std::size_t>(i);
    evaluate.ppMetricNames = s.metrics.data();
    evaluate.numMetrics = s.metrics.size();
    evaluate.pMetricValues = values.data();
    CUPTI_CALL(cuptiProfilerHostEvaluateToGpuValues(&evaluate));
    out.push_back(std::move(values));
  }
  return out;
}

}  // namespace

std::vector<SmemCounters> measure_smem_counters_each(
    int launches, const std::function<void(int)>& launch_kernel) {
  if (counters_detail::launch_only()) {
    for (int i = 0; i < launches; ++i) launch_kernel(i);
    counters_detail::launched_only();
  }
  Session& s = smem_session();
  std::vector<SmemCounters> out;
  for (const std::vector<double>& values : measure_each(s, launches, launch_kernel)) {
    SmemCounters c;
    c.load_wavefronts = values[0];
    c.store_wavefronts = values[1];
    c.load_instructions = values[2];
    c.store_instructions = values[3];
    c.ldsm_instructions = values[4];
    c.load_conflicts = values[5];
    c.store_conflicts = values[6];
    if (values.size() > 7) {
      c.async_copy_instructions = values[7];
      c.async_copy_conflicts = values[8];
    }
    if (s.optional_added) c.async_copy_wavefronts = values[9];
    out.push_back(c);
  }
  return out;
}

SmemCounters measure_smem_counters(const std::function<void()>& launch_one_kernel) {
  return measure_smem_counters_each(1, [&](int) { launch_one_kernel(); }).front();
}

GlobalTraffic measure_global_traffic(const std::function<void()>& launch_one_kernel) {
  if (counters_detail::launch_only()) {
    launch_one_kernel();
    counters_detail::launched_only();
  }
  const std::vector<double> values =
      measure_each(global_session(), 1, [&](int) { launch_one_kernel(); }).front();
  GlobalTraffic t;
  t.load_sectors = values[0];
  t.load_requests = values[1];
  t.store_sectors = values[2];
  t.store_requests = values[3];
  return t;
}

std::optional<GlobalTraffic> global_traffic_where_counted(
    const std::function<void()>& launch_one_kernel, const std::string& unjudged) {
  const CounterAvailability& counters = counters_available();
  if (counters.available) return measure_global_traffic(launch_one_kernel);
  std::cout << "Global traffic not counted (" << counters.reason << "); " << unjudged
            << " is not judged.\n";
  return std::nullopt;
}

void counters_detail::check_cupti(int code, const char* call) {
  gpu::check_cupti(static_cast<CUptiResult>(code), call);
}
void* counters_detail::current_context() {
  return gpu::current_context();
}
bool counters_detail::launch_only() {
  static const bool on = [] {
    const char* v = std::getenv("WORKBOOK_COUNTERS");
    return v != nullptr && std::string(v) == "launch-only";
  }();
  return on;
}
void counters_detail::launched_only() {
  GPU_CHECK(cudaDeviceSynchronize());
  throw CountersUnavailable("WORKBOOK_COUNTERS=launch-only: the kernel ran once, uncounted");
}

}  // namespace gpu
