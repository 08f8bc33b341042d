/// @file tma_map.hpp
/// @brief Tensor maps for the Hopper TMA, made with cuTensorMapEncodeTiled from the driver
/// (reached through the runtime's entry-point query, so nothing links libcuda).
#pragma once

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace gpu {

/// cuTensorMapEncodeTiled refused a map, or could not be reached; what() names the map, the
/// driver's error and, where it can tell, which rule of the TMA the request broke.
class TmaMapError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A 2D map of a row-major float matrix of `rows` x `cols` at `base` (row pitch `cols` floats),
/// moved in boxes of `box_rows` x `box_cols` floats, written into shared memory with `swizzle`.
/// Elements of a box past the matrix's edge are read as zeros and never written. `what` names
/// the map in errors; `promotion` is how much the L2 fetches around each request. Throws
/// TmaMapError when the driver refuses it.
CUtensorMap make_float_tma_map_2d(
    const float* base, long long rows, long long cols, int box_rows, int box_cols,
    CUtensorMapSwizzle swizzle, const std::string& what,
    CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B);

/// The same for a row-major matrix of halves (fp16): `rows` x `cols` halves at `base`, boxes of
/// `box_rows` x `box_cols` halves.
CUtensorMap make_half_tma_map_2d(
    const void* base, long long rows, long long cols, int box_rows, int box_cols,
    CUtensorMapSwizzle swizzle, const std::string& what,
    CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B);

/// The bytes one row of a box may span in `swizzle` (32, 64 or 128; 0 for no swizzle, which has
/// no such limit).
int tma_swizzle_span(CUtensorMapSwizzle swizzle);

}  // namespace gpu
