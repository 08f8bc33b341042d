// Chapter 10 device probes (work in progress: exercise 3's launch comes here).
#include "grader/10_ldmatrix_swizzle/device_probes.hpp"

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
