// Chapter 11 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit.
#include "grader/11_tma_layouts/device_probes.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "chapters/11_tma_layouts/tma_layouts.cuh"
#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/kernel_module.hpp"
#include "common/cuda/tma_map.hpp"
#include "grader/11_tma_layouts/exercise2_cases.hpp"

namespace ch11 {

// The interface's function the grader defines: your variant's N of exercise 2b.
int padded_tile_columns() {
  return spec::exercise2_case(grader::variant::current()).padded_columns;
}

}  // namespace ch11

namespace ch11::probes {

namespace probe_code {

// Where the kernels of this unit keep the interface's wait records (gpu::module_global).
__global__ void locate_gave_up(unsigned long long* address) {
  *address = reinterpret_cast<unsigned long long>(&ptx::mbarrier_gave_up);
}
__global__ void locate_hold(unsigned long long* address) {
  *address = reinterpret_cast<unsigned long long>(&ptx::mbarrier_wait_hold_ns);
}

__global__ void count_wrong_in_numbered_transpose(const float* out, int n,
                                                  unsigned long long* wrong) {
  const long long elements = 1LL * n * n;
  unsigned long long mine = 0;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < elements;
       i += 1LL * gridDim.x * blockDim.x) {
    const long long c = i / n, r = i % n;  // out[c][r] is in[r][c], which holds (r n + c) % 2^24
    mine += out[i] != static_cast<float>((r * n + c) % 16777216);
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

long long wrong_in_numbered_transpose(const float* out, int n) {
  gpu::DeviceBuffer<unsigned long long> wrong(std::vector<unsigned long long>{0});
  gpu::launch(count_wrong_in_numbered_transpose, 1024, 256, 0, out, n, wrong.get());
  GPU_CHECK_KERNEL("counting the wrong elements of a transpose");
  return static_cast<long long>(wrong.download()[0]);
}

int blocks_for(int rows, int cols) {
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(tma_transpose_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  // Two rounds of the stages per block: each stage is loaded at least twice where the matrix
  // has the tiles, so the parity of its phases alternates.
  const long long tiles =
      1LL * ((cols + kTileCols - 1) / kTileCols) * ((rows + kBoxRows - 1) / kBoxRows);
  return static_cast<int>(std::max(1LL, (tiles + 2 * kStages - 1) / (2 * kStages)));
}

void launch_yours(const float* in, float* out, int rows, int cols) {
  static std::map<std::pair<int, int>, int> blocks;
  auto b = blocks.find({rows, cols});
  if (b == blocks.end())
    b = blocks.emplace(std::make_pair(rows, cols), blocks_for(rows, cols)).first;
  launch_yours_on(in, out, rows, cols, b->second);
}

void launch_yours_on(const float* in, float* out, int rows, int cols, int blocks) {
  // The maps of each buffer and shape, made once: encoding them is host work that would
  // otherwise sit between the timing events.
  static std::map<std::tuple<const float*, float*, int, int>, std::pair<CUtensorMap, CUtensorMap>>
      maps;
  const auto key = std::make_tuple(in, out, rows, cols);
  auto found = maps.find(key);
  if (found == maps.end()) {
    found = maps.emplace(key, std::make_pair(make_input_map(in, rows, cols),
                                             make_output_map(out, rows, cols)))
                .first;
  }
  static const bool shared_set = [] {
    GPU_CHECK(cudaFuncSetAttribute(gpu::launched(tma_transpose_kernel),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    return true;
  }();
  (void)shared_set;
  gpu::launch(tma_transpose_kernel, blocks, kThreads, kSharedBytes, found->second.first,
              found->second.second, rows, cols);
}

void forget_waits_that_gave_up() {
  ptx::MbarrierGaveUp none{};
  none.first_bar = 0xffffffffu;
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaMemcpy(gpu::module_global(&ptx::mbarrier_gave_up, locate_gave_up), &none,
                       sizeof none, cudaMemcpyHostToDevice));
}

std::optional<std::string> wait_that_gave_up() {
  ptx::MbarrierGaveUp seen{};
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaMemcpy(&seen, gpu::module_global(&ptx::mbarrier_gave_up, locate_gave_up),
                       sizeof seen, cudaMemcpyDeviceToHost));
  if (seen.happened == 0) return std::nullopt;
  std::string which = "the mbarrier at shared address " + std::to_string(seen.bar);
  if (seen.first_bar != 0xffffffffu && seen.bar >= seen.first_bar) {
    const unsigned stage = (seen.bar - seen.first_bar) / 8;
    which += " (stage " + std::to_string(stage) +
             "'s, counting from the lowest mbarrier your "
             "kernel initialised, 8 bytes each)";
  } else {
    which += " (an address mbarrier_init was never given)";
  }
  return "Thread " + std::to_string(seen.thread) + " of block " + std::to_string(seen.block) +
         " waited on " + which + " for its phase of parity " + std::to_string(seen.parity) +
         ", and that phase did not complete in " +
         std::to_string(ptx::kMbarrierWaitLimitNs / 1000000) + " ms: it never would.";
}

void hold_warps_after_waits(unsigned step_ns) {
  // Also called from a destructor, after a kernel that may have lost the context: never throws.
  try {
    (void)cudaMemcpy(gpu::module_global(&ptx::mbarrier_wait_hold_ns, locate_hold), &step_ns,
                     sizeof step_ns, cudaMemcpyHostToDevice);
  } catch (const std::exception&) {
  }
}

namespace probe_code {

__global__ void poison_kernel(unsigned words) {
  extern __shared__ unsigned poisoned[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) poisoned[i] = kSharedPoison;
}

}  // namespace probe_code

void poison_shared_memory() {
  int device = 0, sms = 0, most = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPU_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(poison_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  gpu::launch(poison_kernel, 2 * sms, 1024, static_cast<size_t>(most),
              static_cast<unsigned>(most) / 4);
  GPU_CHECK_KERNEL("the grader's shared-memory poison");
}

namespace probe_code {

__global__ void dump_box_kernel(const __grid_constant__ CUtensorMap map, float* dump, int bytes,
                                int atoms, int misalign) {
  extern __shared__ __align__(1024) unsigned char raw[];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned raw_at = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  unsigned char* box = raw + (1024 - raw_at % 1024) % 1024 + misalign;
  const unsigned box_at = static_cast<unsigned>(__cvta_generic_to_shared(box));
  const unsigned bar_at = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  for (int i = static_cast<int>(threadIdx.x); i < atoms / 4; i += static_cast<int>(blockDim.x)) {
    reinterpret_cast<float*>(box)[i] = 0;
  }
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(bar_at, 1);
    ptx::fence_mbarrier_init();
  }
  ptx::fence_proxy_async();  // the zeros, before the TMA writes
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(bar_at, static_cast<unsigned>(bytes));
    ptx::tma_load_2d(box_at, &map, 0, 0, bar_at);
  }
  ptx::mbarrier_wait(bar_at, 0);
  for (int i = static_cast<int>(threadIdx.x); i < atoms / 4; i += static_cast<int>(blockDim.x)) {
    dump[i] = reinterpret_cast<const float*>(box)[i];
  }
}

}  // namespace probe_code

std::vector<float> dump_tma_box(TmaSwizzle mode, int box_rows, int box_cols, int misalign) {
  std::vector<float> coded(static_cast<size_t>(box_rows) * box_cols);
  for (int r = 0; r < box_rows; ++r) {
    for (int c = 0; c < box_cols; ++c)
      coded[static_cast<size_t>(r) * box_cols + c] = 4096.0f * r + c + 1;
  }
  gpu::DeviceBuffer<float> matrix(coded);
  const CUtensorMap map =
      gpu::make_float_tma_map_2d(matrix.get(), box_rows, box_cols, box_rows, box_cols,
                                 static_cast<CUtensorMapSwizzle>(mode), "the layout probe's map");
  // Room for the box however the mode places its rows: 128 bytes a row at least (the widest
  // span), in whole 1024-byte atoms.
  const int room = box_cols * 4 > 128 ? box_cols * 4 : 128;
  const int bytes = box_rows * box_cols * 4, atoms = (box_rows * room + 1023) / 1024 * 1024;
  const int shared = atoms + 2048;
  gpu::DeviceBuffer<float> dump(static_cast<size_t>(atoms / 4));
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(dump_box_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  gpu::launch(dump_box_kernel, 1, 128, shared, map, dump.get(), bytes, atoms, misalign);
  GPU_CHECK_KERNEL("the TMA layout probe");
  return dump.download();
}

std::vector<int> tma_box_layout(TmaSwizzle mode, int box_rows, int box_cols) {
  const std::vector<float> dump = dump_tma_box(mode, box_rows, box_cols);
  std::vector<int> where(static_cast<size_t>(box_rows) * box_cols, -1);
  for (std::size_t k = 0; k < dump.size(); ++k) {
    const int code = static_cast<int>(dump[k]) - 1;
    const int r = code / 4096, c = code % 4096;
    if (code >= 0 && r < box_rows && c < box_cols) {
      where[static_cast<size_t>(r * box_cols + c)] = static_cast<int>(4 * k);
    }
  }
  return where;
}

}  // namespace ch11::probes
