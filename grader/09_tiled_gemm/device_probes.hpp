// Chapter 09: what the GPU checks run on the device, callable from host code.
#pragma once

namespace ch09::probes {

/// Launches your sgemm_kernel with the contract's block and grid (M, N multiples of 128, K of 8).
void launch_yours(const float* A, const float* B, float* C, int M, int N, int K);

/// What your compiled sgemm_kernel holds per thread, and how many of its blocks fit on one SM.
struct Resources {
  int registers = 0;      ///< cudaFuncAttributes::numRegs (what ptxas reports)
  int local_bytes = 0;    ///< cudaFuncAttributes::localSizeBytes (spills, local arrays)
  int shared_bytes = 0;   ///< cudaFuncAttributes::sharedSizeBytes (static shared memory)
  int blocks_per_sm = 0;  ///< cudaOccupancyMaxActiveBlocksPerMultiprocessor, kThreads threads
};
/// The resources of sgemm_kernel on the current device.
Resources yours_resources();

/// The grader's baseline: the classic tiled kernel, 32 x 32 shared tiles, one output per thread
/// (M, N, K multiples of 32).
void launch_classic(const float* A, const float* B, float* C, int M, int N, int K);

/// C = A B (row-major, fp32) with cublasSgemm in its default math mode. One handle for the
/// whole run; throws std::runtime_error naming the cuBLAS status when a call fails.
void cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K);

}  // namespace ch09::probes
