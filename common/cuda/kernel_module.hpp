/// @file kernel_module.hpp
/// @brief Launches a grader's kernels either from its own program or from the student's device
/// code loaded as a module, so that a judge can run a student's kernels without linking them.
///
/// A chapter's device probes and the student's exercise are compiled together (one translation
/// unit). In the GPU grader (the maintainers' reference checks), that unit is linked in and
/// launch() is a plain launch. The judge, which runs the GPU checks apart from the student's code,
/// holds the same probes compiled against stand-ins of the student's functions, and loads the
/// unit compiled by itself for the device (a fatbin, no host code) with load_kernel_module():
/// from then on every launch() runs the module's kernel of the same name, and module_global()
/// gives the module's copy of a device variable. The student's host code never runs in the judge.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "common/cuda/cuda_check.hpp"

namespace gpu {

/// @cond INTERNAL
namespace kernel_module_detail {
struct Loaded {
  cudaLibrary_t library = nullptr;
  std::string path;                            // the file it was loaded from
  std::map<const void*, const void*> kernels;  // this program's kernel -> the module's
};
inline Loaded& loaded() {
  static Loaded state;
  return state;
}
inline std::string error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}
}  // namespace kernel_module_detail
/// @endcond

/// Loads the fatbin at `path` as the module every later launch() draws its kernels from.
/// Throws std::runtime_error naming the file and the CUDA error when it cannot be loaded.
inline void load_kernel_module(const std::string& path) {
  using namespace kernel_module_detail;
  loaded() = Loaded{};
  if (const cudaError_t e = cudaLibraryLoadFromFile(&loaded().library, path.c_str(), nullptr,
                                                    nullptr, 0, nullptr, nullptr, 0);
      e != cudaSuccess) {
    loaded().library = nullptr;
    throw std::runtime_error("the kernels of the exercise (" + path +
                             ") could not be loaded on this GPU: " + error_text(e));
  }
  loaded().path = path;
}

/// True once load_kernel_module() has loaded a module.
inline bool kernel_module_loaded() {
  return kernel_module_detail::loaded().library != nullptr;
}

/// The file load_kernel_module() loaded the module from; "" before it has.
inline const std::string& kernel_module_path() {
  return kernel_module_detail::loaded().path;
}

/// The kernel to launch for `kernel`, one of this program's __global__ functions: itself, or the
/// loaded module's kernel of the same (mangled) name, as a cudaKernel_t that the runtime's
/// cudaLaunchKernel, cudaFuncGetAttributes, cudaFuncSetAttribute and occupancy calls accept.
/// Throws std::runtime_error when the module has no such kernel.
inline const void* kernel_to_launch(const void* kernel) {
  using namespace kernel_module_detail;
  Loaded& state = loaded();
  if (state.library == nullptr) return kernel;
  if (const auto found = state.kernels.find(kernel); found != state.kernels.end()) {
    return found->second;
  }
  const char* name = nullptr;
#if CUDART_VERSION >= 12030
  if (const cudaError_t e = cudaFuncGetName(&name, kernel); e != cudaSuccess || !name) {
    throw std::runtime_error("a kernel of the grader has no name: " + error_text(e));
  }
#else
  throw std::runtime_error("launching kernels from a file needs CUDA 12.3 (cudaFuncGetName)");
#endif
  cudaKernel_t found = nullptr;
  if (const cudaError_t e = cudaLibraryGetKernel(&found, state.library, name); e != cudaSuccess) {
    throw std::runtime_error(
        std::string("the kernels of the exercise hold no ") + name +
        " (were they compiled from this chapter's exercise?): " + error_text(e));
  }
  return state.kernels[kernel] = reinterpret_cast<const void*>(found);
}

/// The device address of a device variable of the exercise's unit: this program's `symbol`, or,
/// from a loaded module, the address its kernel `locate` (one of this program's, launched from the
/// module with one thread) writes to its argument as an integer. Throws CudaError when neither
/// can be had.
void* module_global(const void* symbol, void (*locate)(unsigned long long*));

/// `kernel<<<grid, block, shared>>>(args...)`, from the loaded module where there is one. As
/// with <<<>>>, a failed launch is left to cudaGetLastError() (GPU_CHECK_KERNEL).
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "launch(): one argument per parameter");
  auto values = std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...);
  std::apply(
      [&](auto&... value) {
        void* pointers[] = {static_cast<void*>(&value)..., nullptr};
        (void)cudaLaunchKernel(kernel_to_launch(reinterpret_cast<const void*>(kernel)), grid, block,
                               pointers, shared, cudaStream_t{});
      },
      values);
}

/// `kernel` as the runtime's attribute and occupancy calls take it (see kernel_to_launch()).
template <typename... Params>
const void* launched(void (*kernel)(Params...)) {
  return kernel_to_launch(reinterpret_cast<const void*>(kernel));
}

inline void* module_global(const void* symbol, void (*locate)(unsigned long long*)) {
  void* address = nullptr;
  if (!kernel_module_loaded()) {
    GPU_CHECK(cudaGetSymbolAddress(&address, symbol));
    return address;
  }
  unsigned long long* found = nullptr;
  unsigned long long value = 0;
  GPU_CHECK(cudaMalloc(&found, sizeof *found));
  launch(locate, 1, 1, 0, found);
  const cudaError_t launched_ok = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(&value, found, sizeof value, cudaMemcpyDeviceToHost);
  address = reinterpret_cast<void*>(value);
  (void)cudaFree(found);
  GPU_CHECK(launched_ok);
  GPU_CHECK(copied);
  return address;
}

}  // namespace gpu
