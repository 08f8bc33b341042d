/// @file cuda_check.hpp
/// @brief CUDA error checks that name the failing call and kernel, and remember a lost context.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

/// CUDA helpers for graders and tools: error checks, buffers, timing, GPU detection.
namespace gpu {

/// A failed CUDA call. what() names the call, where it was made, the kernel it concerns (if
/// any) and the CUDA error; sticky() tells whether the error destroyed the CUDA context.
class CudaError : public std::runtime_error {
 public:
  /// An error `code` described by `message`; `sticky` when the context is lost.
  CudaError(cudaError_t code, const std::string& message, bool sticky)
      : std::runtime_error(message), code_(code), sticky_(sticky) {}
  cudaError_t code() const { return code_; }  ///< The CUDA error code.
  bool sticky() const { return sticky_; }     ///< True when the context is lost for good.

 private:
  cudaError_t code_;
  bool sticky_;
};

/// True for errors after which every later CUDA call in the process fails (a crashed kernel:
/// illegal address, misaligned address, illegal instruction, device-side assert, ...).
bool is_sticky(cudaError_t code);

/// Throws CudaError when `code` is not cudaSuccess. `call` is the source text of the call and
/// `where` its source position, as file name, colon, line number. A sticky error is also
/// remembered: see context_lost().
void check(cudaError_t code, const char* call, const char* where);

/// Checks a kernel launch: the launch itself (bad configuration) and, after synchronising, the
/// kernel's execution (a crash). Errors name `kernel`.
void check_kernel(const char* kernel, const char* where);

/// Empty while the CUDA context is usable; otherwise a description of the crash that lost it.
const std::string& context_lost();

}  // namespace gpu

/// Checks a CUDA runtime call, naming it and its place in the source when it fails.
#define GPU_CHECK(call) ::gpu::check((call), #call, __FILE__ ":" GPU_CHECK_STR(__LINE__))
/// Checks the kernel launched just before, naming it when the launch or the kernel fails.
#define GPU_CHECK_KERNEL(name) ::gpu::check_kernel((name), __FILE__ ":" GPU_CHECK_STR(__LINE__))
/// @cond INTERNAL
#define GPU_CHECK_STR2(x) #x
#define GPU_CHECK_STR(x) GPU_CHECK_STR2(x)
/// @endcond
