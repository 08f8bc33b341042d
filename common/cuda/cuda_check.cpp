#include "common/cuda/cuda_check.hpp"

namespace gpu {

namespace {
std::string& lost_description() {
  static std::string description;
  return description;
}

std::string describe(cudaError_t code) {
  std::string text = std::string(cudaGetErrorString(code)) + " (" + cudaGetErrorName(code) + ")";
  // The usual causes, for the crashes a student's kernel is most likely to cause.
  if (code == cudaErrorMisalignedAddress) {
    text +=
        ": an access of N bytes (a float2, a float4, ...) at an address that is not a "
        "multiple of N";
  } else if (code == cudaErrorIllegalAddress) {
    text += ": an access outside every allocation, often a missing bounds guard";
  }
  return text;
}

[[noreturn]] void fail(cudaError_t code, const std::string& message) {
  const bool sticky = is_sticky(code);
  if (sticky && lost_description().empty()) lost_description() = message;
  throw CudaError(code, message, sticky);
}
}  // namespace

bool is_sticky(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable: return true;
    default: return false;
  }
}

void check(cudaError_t code, const char* call, const char* where) {
  if (code == cudaSuccess) return;
  fail(code, std::string(call) + " failed at " + where + ": " + describe(code));
}

void check_kernel(const char* kernel, const char* where) {
  cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) {
    fail(code,
         std::string("launching kernel ") + kernel + " failed at " + where + ": " + describe(code));
  }
  code = cudaDeviceSynchronize();
  if (code != cudaSuccess) {
    fail(code, std::string("kernel ") + kernel + " crashed (launched at " + where +
                   "): " + describe(code));
  }
}

const std::string& context_lost() {
  return lost_description();
}

}  // namespace gpu
