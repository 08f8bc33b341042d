#include "common/cuda/tma_map.hpp"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace gpu {

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    // The encoder needs a current context, which a process that has launched nothing lacks
    // (CUresult 201): the subject a judge calls, for one. The runtime makes its own current.
    cudaFree(nullptr);
    void* found = nullptr;
    cudaDriverEntryPointQueryResult status{};
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found, 12000,
                                                           cudaEnableDefault, &status);
    if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || found == nullptr) {
      throw TmaMapError(std::string("cuTensorMapEncodeTiled is not available from this driver (") +
                        (e != cudaSuccess ? cudaGetErrorString(e) : "symbol not found") +
                        "); the TMA needs a CUDA 12 driver and a GPU of compute capability 9.0");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(found);
  }();
  return fn;
}

const char* swizzle_name(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: return "no swizzle";
    case CU_TENSOR_MAP_SWIZZLE_32B: return "SWIZZLE_32B";
    case CU_TENSOR_MAP_SWIZZLE_64B: return "SWIZZLE_64B";
    case CU_TENSOR_MAP_SWIZZLE_128B: return "SWIZZLE_128B";
    default: return "another swizzle";
  }
}

}  // namespace

int tma_swizzle_span(CUtensorMapSwizzle swizzle) {
  switch (swizzle) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
    default: return 0;
  }
}

namespace {

// A 2D map of `element_bytes`-byte elements of type `type`; the float and half maps share it.
CUtensorMap make_tma_map_2d(CUtensorMapDataType type, int element_bytes, const char* elements,
                            const void* base, long long rows, long long cols, int box_rows,
                            int box_cols, CUtensorMapSwizzle swizzle, const std::string& what,
                            CUtensorMapL2promotion promotion) {
  const std::string name = what + " (" + std::to_string(rows) + " x " + std::to_string(cols) + " " +
                           elements + ", boxes of " + std::to_string(box_rows) + " x " +
                           std::to_string(box_cols) + ", " + swizzle_name(swizzle) + ")";
  // What the TMA requires, to say which rule a refused map broke.
  std::string broken;
  const int span = tma_swizzle_span(swizzle);
  const long long row_bytes = 1LL * box_cols * element_bytes;
  if (rows < 1 || cols < 1)
    broken = "the matrix is empty";
  else if (box_rows < 1 || box_cols < 1 || box_rows > 256 || box_cols > 256)
    broken = "each box dimension must be 1 to 256 elements";
  else if (row_bytes % 16 != 0)
    broken = "a box row must be a multiple of 16 bytes; it is " + std::to_string(row_bytes);
  else if (span > 0 && row_bytes > span)
    broken = "a box row (" + std::to_string(row_bytes) + " bytes) may not exceed the " +
             std::to_string(span) + "-byte span of " + swizzle_name(swizzle);
  else if (cols * element_bytes % 16 != 0)
    broken = "the row pitch (" + std::to_string(cols * element_bytes) +
             " bytes) must be a multiple of 16";
  else if (reinterpret_cast<std::uintptr_t>(base) % 16 != 0)
    broken = "the matrix must start at a 16-byte aligned address";

  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * element_bytes};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_function()(&map, type, 2, const_cast<void*>(base), dims, strides, box,
                                       element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                       promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw TmaMapError("cuTensorMapEncodeTiled refused " + name + ": CUresult " +
                      std::to_string(static_cast<int>(r)) +
                      (broken.empty() ? std::string() : "; " + broken));
  }
  return map;
}

}  // namespace

CUtensorMap make_float_tma_map_2d(const float* base, long long rows, long long cols, int box_rows,
                                  int box_cols, CUtensorMapSwizzle swizzle, const std::string& what,
                                  CUtensorMapL2promotion promotion) {
  return make_tma_map_2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, "floats", base, rows, cols, box_rows,
                         box_cols, swizzle, what, promotion);
}

CUtensorMap make_half_tma_map_2d(const void* base, long long rows, long long cols, int box_rows,
                                 int box_cols, CUtensorMapSwizzle swizzle, const std::string& what,
                                 CUtensorMapL2promotion promotion) {
  return make_tma_map_2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, "halves", base, rows, cols, box_rows,
                         box_cols, swizzle, what, promotion);
}

}  // namespace gpu
