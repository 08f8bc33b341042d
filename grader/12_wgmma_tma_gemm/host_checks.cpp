// Chapter 12 host checks (being written).
#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "grader/harness/feedback.hpp"
