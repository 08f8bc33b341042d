#include "common/counters/source_counters.hpp"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <tuple>

#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {

// The SASS metrics read per instruction (Nsight Compute's source view reads the same ones).
// Only the first is needed; the others are used where this CUPTI offers them.
enum Metric {
  kExecuted,      // warp-level executions: the requests
  kSharedLoads,   // executions that are shared loads (LDS; ldmatrix counts here too)
  kSharedStores,  // ... shared stores (STS)
  kLdsm,          // ... ldmatrix (LDSM)
  kLdgsts,        // ... cp.async (LDGSTS)
  kWavefronts,    // shared-memory wavefronts of the LSU pipe, all kinds
  kIdeal,         // the same without conflicts
  kLoadWavefronts,
  kStoreWavefronts,
  kLdsmWavefronts,
  kLdgstsWavefronts,
  kMetricCount
};
const char* const kSassMetrics[kMetricCount] = {
    "smsp__sass_inst_executed",
    "smsp__sass_inst_executed_op_shared_ld",
    "smsp__sass_inst_executed_op_shared_st",
    "smsp__sass_inst_executed_op_ldsm",
    "smsp__sass_inst_executed_op_ldgsts",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts",
};

template <typename P>
P sass_params(std::size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}

void call(CUptiResult code, const char* what) {
  counters_detail::check_cupti(static_cast<int>(code), what);
}
#define SASS_CALL(expression) call((expression), #expression)

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <typename T>
T read_at(const std::string& bytes, std::size_t at) {
  T value{};
  if (at + sizeof(T) <= bytes.size()) std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

std::uint32_t cubin_crc(const std::string& cubin) {
  CUpti_GetCubinCrcParams p{};
  p.size = CUpti_GetCubinCrcParamsSize;
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  if (cuptiGetCubinCrc(&p) != CUPTI_SUCCESS) return 0;
  return static_cast<std::uint32_t>(p.cubinCrc);
}

// Disables SASS metrics however the measurement ends.
struct SassRange {
  CUcontext context;
  std::uint32_t device;
  bool enabled = false;
  ~SassRange() {
    if (enabled) {
      auto off =
          sass_params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
      off.ctx = context;
      cuptiSassMetricsDisable(&off);
    }
    auto unset = sass_params<CUpti_SassMetricsUnsetConfig_Params>(
        CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
    unset.deviceIndex = device;
    cuptiSassMetricsUnsetConfig(&unset);
  }
};

// What one instruction does in shared memory, from which per-kind counts it has.
const char* kind_of(const std::map<int, double>& v) {
  const auto has = [&v](Metric m) {
    const auto it = v.find(m);
    return it != v.end() && it->second > 0;
  };
  if (has(kLdgsts)) return "cp.async";
  if (has(kLdsm)) return "ldmatrix";
  if (has(kSharedStores)) return "store";
  if (has(kSharedLoads)) return "load";
  if (has(kWavefronts)) return "shared";  // counted wavefronts, kind unknown (an atomic)
  return nullptr;
}

}  // namespace

std::optional<SourcePlace> source_place(const std::string& cubin, const std::string& function,
                                        std::uint32_t pc_offset) {
  CUpti_GetSassToSourceCorrelationParams p{};
  p.size = CUpti_GetSassToSourceCorrelationParamsSize;
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  p.functionName = function.c_str();
  p.pcOffset = pc_offset;
  if (cubin.empty() || cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS) return std::nullopt;
  SourcePlace place;
  place.line = static_cast<int>(p.lineNumber);
  place.file = p.fileName ? p.fileName : "";
  if (!place.file.empty() && place.file.front() != '/' && p.dirName && *p.dirName) {
    place.file = std::string(p.dirName) + "/" + place.file;
  }
  std::free(p.fileName);
  std::free(p.dirName);
  if (place.file.empty() || place.line <= 0) return std::nullopt;
  return place;
}

std::vector<std::string> cubins_in(const std::string& bytes) {
  constexpr std::uint16_t kCudaMachine = 190;  // EM_CUDA
  std::vector<std::string> cubins;
  for (std::size_t at = bytes.find("\x7f"
                                   "ELF");
       at != std::string::npos; at = bytes.find("\x7f"
                                                "ELF",
                                                at + 4)) {
    if (bytes[at + 4] != 2 || read_at<std::uint16_t>(bytes, at + 0x12) != kCudaMachine) continue;
    // The image ends with its last header table: the section headers (e_shoff + e_shnum
    // e_shentsize) or, where nvcc puts them after those, the program headers (e_phoff + e_phnum
    // e_phentsize). Cut shorter, the image still places instructions on lines, but its CRC is
    // not the one CUPTI gives the cubin that ran.
    const auto table_end = [&](std::size_t offset, std::size_t entry_size, std::size_t count) {
      return read_at<std::uint64_t>(bytes, at + offset) +
             static_cast<std::uint64_t>(read_at<std::uint16_t>(bytes, at + entry_size)) *
                 read_at<std::uint16_t>(bytes, at + count);
    };
    const std::uint64_t size = std::max(table_end(0x28, 0x3a, 0x3c), table_end(0x20, 0x36, 0x38));
    if (size == 0 || at + size > bytes.size()) continue;
    cubins.push_back(bytes.substr(at, size));
  }
  return cubins;
}

std::vector<InstructionCount> measure_instruction_counts(
    const std::function<void()>& launch_one_kernel, const std::string& kernels_file,
    std::string* no_lines_why) {
  if (counters_detail::launch_only()) {
    launch_one_kernel();
    counters_detail::launched_only();
  }
  auto init =
      sass_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  SASS_CALL(cuptiProfilerInitialize(&init));
  const CUcontext context = static_cast<CUcontext>(counters_detail::current_context());
  int device = 0;
  GPU_CHECK(cudaGetDevice(&device));
  auto chip =
      sass_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  SASS_CALL(cuptiDeviceGetChipName(&chip));

  std::map<std::uint64_t, int> metric_of_id;
  std::vector<CUpti_SassMetrics_Config> configs;
  for (int m = 0; m < kMetricCount; ++m) {
    auto property = sass_params<CUpti_SassMetrics_GetProperties_Params>(
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
    property.pChipName = chip.pChipName;
    property.pMetricName = kSassMetrics[m];
    if (cuptiSassMetricsGetProperties(&property) != CUPTI_SUCCESS) {
      if (m == kExecuted) {
        throw CountersUnavailable(std::string("this CUPTI offers no SASS metric ") +
                                  kSassMetrics[m] + " for " + chip.pChipName);
      }
      continue;
    }
    metric_of_id[property.metric.metricId] = m;
    configs.push_back({property.metric.metricId,
                       static_cast<std::uint8_t>(CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU)});
  }
  // Where the lines come from: the cubins of the kernels file (a judge's kernels) and of this
  // program (a grader that holds them), each instruction's from the one that ran.
  std::vector<std::string> cubins = cubins_in(file_bytes(kernels_file));
  const std::size_t from_file = cubins.size();
  for (std::string& own : cubins_in(file_bytes("/proc/self/exe"))) cubins.push_back(std::move(own));
  std::vector<std::uint32_t> crcs;
  for (const std::string& cubin : cubins) crcs.push_back(cubin_crc(cubin));

  auto config =
      sass_params<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
  config.numOfMetricConfig = configs.size();
  config.pConfigs = configs.data();
  config.deviceIndex = static_cast<std::uint32_t>(device);
  SASS_CALL(cuptiSassMetricsSetConfig(&config));
  SassRange range{context, static_cast<std::uint32_t>(device)};
  auto enable =
      sass_params<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
  enable.ctx = context;
  enable.enableLazyPatching = 1;
  SASS_CALL(cuptiSassMetricsEnable(&enable));
  range.enabled = true;
  launch_one_kernel();
  GPU_CHECK(cudaDeviceSynchronize());

  auto shape = sass_params<CUpti_SassMetricsGetDataProperties_Params>(
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
  shape.ctx = context;
  SASS_CALL(cuptiSassMetricsGetDataProperties(&shape));
  if (shape.numOfPatchedInstructionRecords == 0) {
    throw std::runtime_error("the measured callback launched no kernel");
  }
  std::vector<CUpti_SassMetrics_Data> records(shape.numOfPatchedInstructionRecords);
  std::vector<CUpti_SassMetrics_InstanceValue> values(records.size() * shape.numOfInstances);
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].structSize = sizeof(CUpti_SassMetrics_Data);
    records[i].pInstanceValues = &values[i * shape.numOfInstances];
  }
  auto flush =
      sass_params<CUpti_SassMetricsFlushData_Params>(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = records.size();
  flush.numOfInstances = shape.numOfInstances;
  flush.pMetricsData = records.data();
  SASS_CALL(cuptiSassMetricsFlushData(&flush));

  // Sum each instruction's values by metric (the records may give an instruction's metrics in
  // one record or several).
  std::map<std::tuple<std::string, std::uint32_t, std::uint32_t>, std::map<int, double>> sums;
  for (const CUpti_SassMetrics_Data& r : records) {
    auto& v = sums[{r.functionName ? r.functionName : "", r.pcOffset, r.cubinCrc}];
    for (std::size_t k = 0; k < shape.numOfInstances; ++k) {
      const auto it = metric_of_id.find(r.pInstanceValues[k].metricId);
      if (it != metric_of_id.end())
        v[it->second] += static_cast<double>(r.pInstanceValues[k].value);
    }
  }
  // The cubin that ran: the one of the record's CRC; where CUPTI gives no CRC, the first that
  // holds the function, the kernels file's before this program's.
  const auto cubin_of = [&](const std::string& function, std::uint32_t crc) -> const std::string* {
    for (std::size_t i = 0; i < cubins.size(); ++i) {
      if (crc != 0 && crcs[i] == crc) return &cubins[i];
    }
    for (std::size_t i = 0; i < cubins.size(); ++i) {
      if ((crc == 0 || crcs[i] == 0) && cubins[i].find(function) != std::string::npos) {
        return &cubins[i];
      }
    }
    return nullptr;
  };
  std::vector<InstructionCount> out;
  bool placed = false;
  for (const auto& [where, v] : sums) {
    const char* kind = kind_of(v);
    const auto executed = v.find(kExecuted);
    if (kind == nullptr || executed == v.end() || executed->second <= 0) continue;
    InstructionCount c;
    std::tie(c.function, c.pc_offset, std::ignore) = where;
    c.op = kind;
    c.requests = executed->second;
    const Metric own = c.op == "cp.async"   ? kLdgstsWavefronts
                       : c.op == "ldmatrix" ? kLdsmWavefronts
                       : c.op == "store"    ? kStoreWavefronts
                       : c.op == "load"     ? kLoadWavefronts
                                            : kWavefronts;
    const auto wavefronts = v.count(own) ? v.find(own) : v.find(kWavefronts);
    c.wavefronts = wavefronts == v.end() ? 0 : wavefronts->second;
    if (const auto ideal = v.find(kIdeal); ideal != v.end()) c.ideal_wavefronts = ideal->second;
    if (const std::string* cubin = cubin_of(c.function, std::get<2>(where))) {
      if (const auto place = source_place(*cubin, c.function, c.pc_offset)) {
        c.file = place->file;
        c.line = place->line;
        placed = true;
      }
    }
    out.push_back(c);
  }
  if (no_lines_why != nullptr) {
    *no_lines_why = placed ? ""
                    : from_file == 0
                        ? "the kernels file " + kernels_file + " holds no cubin to read"
                        : "neither " + kernels_file +
                              " nor this program holds the build that ran with its "
                              "lines (-lineinfo)";
  }
  return out;
}

namespace {
// With WORKBOOK_LINES_TSV=FILE, each measured kernel's instructions are appended to FILE, one
// row each after a header, numbered by measurement: what the maintainers' comparison with
// Nsight Compute's source view reads (tools/maintainer/compare_lines_with_ncu.py).
void append_to_lines_file(const std::vector<InstructionCount>& counts) {
  const char* path = std::getenv("WORKBOOK_LINES_TSV");
  if (path == nullptr || *path == '\0') return;
  static int measurement = 0;
  ++measurement;
  std::ifstream existing(path);
  const bool fresh = !existing || existing.peek() == std::ifstream::traits_type::eof();
  std::ofstream out(path, std::ios::app);
  out << std::fixed << std::setprecision(0);  // counts, whole numbers
  if (fresh)
    out << "measurement\tfunction\tpc_offset\top\trequests\twavefronts\tideal\tfile\tline\n";
  for (const InstructionCount& c : counts) {
    out << getpid() << '.' << measurement << '\t' << c.function << '\t' << c.pc_offset << '\t'
        << c.op << '\t' << c.requests << '\t' << c.wavefronts << '\t' << c.ideal_wavefronts << '\t'
        << c.file << '\t' << c.line << '\n';
  }
  if (!out) std::cerr << "WORKBOOK_LINES_TSV: could not write " << path << "\n";
}
}  // namespace

std::string beside_this_program(const std::string& name) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return name;
  const std::string path(self, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/') + 1) + name;
}

std::string shared_lines_or_why(const std::function<void()>& launch_one_kernel,
                                const std::string& kernels_file,
                                const std::vector<std::string>& readable_folders) {
  try {
    std::string why;
    const auto counts = measure_instruction_counts(launch_one_kernel, kernels_file, &why);
    append_to_lines_file(counts);
    return shared_lines_table(counts, readable_folders) +
           (why.empty() ? "" : "  (no source lines: " + why + ")\n");
  } catch (const std::exception& e) {
    return "  (no line-by-line view: " + std::string(e.what()) + ")\n";
  }
}

}  // namespace gpu
