/// @file gpu_info.hpp
/// @brief Which GPU the checks would run on, or why there is none, and what it can do at most.
#pragma once

#include <string>

namespace gpu {

/// The result of looking for a usable GPU.
struct GpuInfo {
  bool usable = false;  ///< True when GPU checks can run.
  /// Why GPU checks cannot run (empty when usable), in words a student can act on.
  std::string reason;
  int device = 0;            ///< CUDA device index that will be used.
  std::string name;          ///< Marketing name, e.g. "NVIDIA H200".
  int major = 0;             ///< Compute capability, major.
  int minor = 0;             ///< Compute capability, minor.
  int multiprocessors = 0;   ///< SM count.
  int l2_bytes = 0;          ///< L2 cache size.
  int driver_version = 0;    ///< cudaDriverGetVersion, e.g. 13000.
  int sm_clock_khz = 0;      ///< Peak SM clock (cudaDevAttrClockRate).
  int memory_clock_khz = 0;  ///< Peak memory clock (cudaDevAttrMemoryClockRate).
  int memory_bus_bits = 0;   ///< Memory bus width (cudaDevAttrGlobalMemoryBusWidth).
  /// "NVIDIA H200 (sm_90, 132 SMs, driver 13.0)".
  std::string describe() const;
};

/// Looks for device 0 (or the one CUDA_VISIBLE_DEVICES leaves first) and checks that it has
/// compute capability >= `min_major`.`min_minor` and that this program holds code it can run.
/// Never throws: every problem becomes `reason`.
GpuInfo detect_gpu(int min_major = 7, int min_minor = 5);

/// The most a GPU can do per second, from its properties at one SM clock; 0 where a rate is not
/// known (an architecture missing from the table below, a property the driver did not give).
/// The SM count is the one the program sees (an MPS slice sees its share), so compute ceilings
/// scale with a slice; the memory's does not.
struct Ceilings {
  double sm_clock_hz = 0;       ///< The SM clock the compute ceilings are taken at.
  bool clock_measured = false;  ///< Whether sm_clock_hz was measured (else the peak clock).
  /// Device memory: two transfers per memory clock over the bus, bytes read plus written.
  double memory_bytes_per_second = 0;
  /// Shared memory: 32 banks of 4 bytes, one wavefront per clock in each SM.
  double shared_bytes_per_second = 0;
  /// fp32 FMA counted as two FLOPs: the FP32 lanes of every SM at every clock.
  double fp32_flops = 0;
  /// Tensor cores, dense fp16 inputs with fp32 accumulation.
  double fp16_tensor_flops = 0;
};

/// FP32 lanes per SM, from NVIDIA's published peaks: 64 on sm_7x and sm_80, 128 on sm_86 and
/// later.
int fp32_lanes_per_sm(int major, int minor);

/// Dense fp16 tensor FLOPs with fp32 accumulation per SM and clock, from NVIDIA's published
/// peaks (V100: 1024, A100: 2048, H100 and H200: 4096); 0 where not known, or where products of
/// one architecture differ.
int fp16_tensor_flops_per_sm_clock(int major, int minor);

/// The ceilings of `gpu` at `sm_clock_hz` (its peak clock when 0).
Ceilings ceilings(const GpuInfo& gpu, double sm_clock_hz = 0);

/// The SM clock now, in Hz: a kernel that spins on every SM for about `milliseconds`, counting
/// SM clocks against the GPU's nanosecond timer. 0 when it cannot be measured.
double measure_sm_clock_hz(double milliseconds = 5);

}  // namespace gpu
