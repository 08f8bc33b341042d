// Chapter 12 GPU checks (being written; a placeholder so that the chapter configures).
#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "grader/harness/feedback.hpp"
