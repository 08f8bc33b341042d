// Chapter 01: what the GPU checks run on the device, callable from host code (gpu_checks.cpp).
// device_probes.cu compiles these together with the exercise file being graded.
#pragma once

#include <vector>

#include "chapters/01_bank_indexing/bank_indexing.cuh"

namespace ch01::probes {

/// Bytes of shared memory the latency probe owns; pattern addresses must lie inside it.
constexpr unsigned kProbeSharedBytes = 16384;

/// bank_of() evaluated on the device for each address.
std::vector<int> device_bank_of(const std::vector<unsigned>& addresses);

/// pattern_address() evaluated on the device for lanes 0..31 of case `c`.
std::vector<unsigned> device_pattern_addresses(const PatternCase& c);

/// warp_wavefronts() on the device: `addresses` holds 32 per warp, one warp each; returns what
/// every lane returned (32 per warp). `addresses.size()` must be a multiple of 32.
std::vector<int> device_warp_wavefronts(const std::vector<unsigned>& addresses);

/// SM cycles per shared-memory load of case `c` for one warp: a dependent chain of
/// `iterations` loads at each lane's pattern_address(), timed with clock64(); the median of
/// `launches` launches. Needs every address inside kProbeSharedBytes and aligned.
double pattern_load_cycles(const PatternCase& c, int iterations, int launches);

/// Wavefronts per request of one warp loading each case once (one instruction, at each lane's
/// pattern_address()), read from the hardware counters, in the order of `cases`: one launch per
/// case, all in one profiler session (whose setup, whatever it counts, is paid once). Throws
/// gpu::CountersUnavailable when counters cannot be read here.
std::vector<double> pattern_wavefronts_counted(const std::vector<PatternCase>& cases);

}  // namespace ch01::probes
