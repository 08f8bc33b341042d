// validate_bank_model: runs every case of a case file on the GPU, one warp and one shared-memory
// instruction each, reads the hardware counters, and writes the measured file in the same
// format. Then it compares the bank model with what was measured.
//
//   validate_bank_model [--quiet] OUTPUT.tsv CASES.tsv [CASES.tsv ...]
//
// Every case is printed with its measured and modelled costs; --quiet prints only the cases
// where the model disagrees, and the summary.
//
// Exit status: 0 every case measured and the model agrees; 1 the model disagrees somewhere (the
// measured file is written all the same); 2 bad input; 77 no usable GPU or no counters (the
// reason and its fix are printed, and nothing is written).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/gpu_info.hpp"
#include "common/model/bank_model.hpp"
#include "common/model/case_file.hpp"

namespace {

int run(int argc, char** argv) {
  const bool quiet = argc > 1 && std::string(argv[1]) == "--quiet";
  if (quiet) {
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::cerr << "usage: validate_bank_model [--quiet] OUTPUT.tsv CASES.tsv [CASES.tsv ...]\n";
    return 2;
  }
  std::vector<smem::SmemCase> cases;
  for (int i = 2; i < argc; ++i) {
    try {
      const std::vector<smem::SmemCase> more = smem::read_case_file(argv[i]);
      cases.insert(cases.end(), more.begin(), more.end());
    } catch (const smem::CaseFileError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  const gpu::GpuInfo info = gpu::detect_gpu();
  if (!info.usable) {
    std::cout << "SKIP: no GPU to validate the bank model on: " << info.reason << "\n";
    return 77;
  }
  const gpu::CounterAvailability& counters = gpu::counters_available();
  if (!counters.available) {
    std::cout << "SKIP: cannot read shared-memory counters: " << counters.reason << "\n";
    return 77;
  }
  int max_shared = 0;
  GPU_CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));

  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::ofstream out(argv[1]);
  out << "# Measured by validate_bank_model on " << info.describe() << ", " << date
      << ": wavefronts and Nsight-Compute-style bank conflicts per request, from the hardware\n"
      << "# counters (CUPTI Range Profiler) of one warp executing one instruction.\n"
      << "# name\twidth_bytes\top\twavefronts\tncu_bank_conflicts\taddresses (lane 0 first; "
         "-1 = inactive)\n";
  int disagreements = 0;
  std::cout << std::left << std::setw(28) << "case" << std::right << std::setw(10) << "measured"
            << std::setw(7) << "model" << std::setw(11) << "conflicts" << std::setw(7) << "model"
            << "\n";
  // Many cases share one profiler session: far faster than one session per case.
  constexpr std::size_t kBatch = 64;
  for (std::size_t first = 0; first < cases.size(); first += kBatch) {
    const std::size_t last = std::min(cases.size(), first + kBatch);
    std::vector<smem::WarpRequest> requests;
    for (std::size_t i = first; i < last; ++i) requests.push_back(cases[i].request);
    const std::vector<gpu::MeasuredAccess> measured =
        gpu::measure_warp_requests(requests, max_shared);
    for (std::size_t i = first; i < last; ++i) {
      smem::SmemCase c = cases[i];
      const gpu::MeasuredAccess& m = measured[i - first];
      const smem::Analysis a = smem::analyze(c.request);
      c.wavefronts = m.wavefronts;
      c.conflicts = m.conflicts;
      out << smem::format_case(c) << "\n";
      const bool agree = m.wavefronts == a.wavefronts && m.conflicts == a.excess;
      disagreements += agree ? 0 : 1;
      if (!agree || !quiet) {
        std::cout << std::left << std::setw(28) << c.name << std::right << std::setw(10)
                  << m.wavefronts << std::setw(7) << a.wavefronts << std::setw(11) << m.conflicts
                  << std::setw(7) << a.excess << (agree ? "" : "   MODEL DISAGREES") << "\n";
      }
    }
  }
  out.close();
  if (!out) {
    std::cerr << "error: cannot write " << argv[1] << "\n";
    return 2;
  }
  std::cout << cases.size() << " cases measured on " << info.describe() << ", written to "
            << argv[1] << "; the model disagrees on " << disagreements << "\n";
  return disagreements == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gpu::CountersUnavailable& e) {
    std::cout << "SKIP: cannot read shared-memory counters: " << e.what() << "\n";
    return 77;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
