// Chapter 12: what the GPU checks run on the device, callable from host code.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"

namespace ch12::probes {

/// Whether the code this grader would run on the GPU holds wgmma (sm_90a machine code chosen for
/// this GPU): the reason it does not, or nothing.
std::optional<std::string> no_wgmma_here();

/// Launches your wgmma_gemm_kernel<layout> with the contract's grid, block and shared memory and
/// a ring of `stages` (tensor maps made once per buffer and shape).
void launch_yours(ch12::OperandLayout layout, const __half* A, const __half* B, float* C, int M,
                  int N, int K, int stages = ch12::kStages);

/// launch_yours() after a kernel that fills every SM's shared memory with NaN: a stage read
/// before its bytes land reads NaN, not what an earlier block left there.
void launch_yours_on_poisoned_shared(ch12::OperandLayout layout, const __half* A, const __half* B,
                                     float* C, int M, int N, int K, int stages);

/// Forgets any mbarrier wait that gave up, before a launch.
void forget_waits_that_gave_up();
/// What the first mbarrier wait that gave up since forget_waits_that_gave_up() waited for (full
/// or empty, which stage), or nothing.
std::optional<std::string> wait_that_gave_up();

/// Runs wgmma m64n256k16 over A's K-tile (64 rows) as `pairing` writes and reads it, starting
/// from your own wgmma_descriptor (exercise 1: run this once it is right) and changing what the
/// pairing changes (spec::pairing_descriptor); B's 256 rows written in k128B and read with your
/// descriptor. For one random problem of small integers; returns how many of the 64 x 256
/// elements of C are wrong.
int wrong_elements_of_pairing(const ch12::Pairing& pairing, unsigned seed);

/// Runs one warpgroup's wgmma over TMA-written K-tiles (64 rows of A, 256 of B, `layout`) with
/// your wgmma_descriptor for every k16 step, and returns how many elements of C are wrong (-1
/// when your descriptor's start address would leave the tiles).
int wrong_elements_with_your_descriptors(ch12::OperandLayout layout, unsigned seed);

/// The grader's baseline: a tensor-core GEMM without shared memory, each warp loading its
/// nvcuda::wmma fragments straight from global memory (the contract's shapes).
void launch_baseline(const __half* A, const __half* B, float* C, int M, int N, int K);

/// C = A B^T with cublasGemmEx (fp32 compute). Throws std::runtime_error naming the status.
void cublas_gemm(const __half* A, const __half* B, float* C, int M, int N, int K);

/// C = A B^T with cuBLASLt's heuristic choice number `algo` for this shape (0 .. lt_algos - 1);
/// lt_algos(M, N, K) is how many it offers (at most 8).
int lt_algos(int M, int N, int K);
void cublaslt_gemm(int algo, const __half* A, const __half* B, float* C, int M, int N, int K);

/// Fills x[0 .. n - 1] with gpu::random_float(seed, i) rounded to half, on the device (the
/// operands the speed checks time).
void random_halves(__half* x, long long n, unsigned long long seed);

}  // namespace ch12::probes
