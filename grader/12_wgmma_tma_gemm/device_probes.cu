// Chapter 12 device probes. grader/tools/make_grader_unit.py compiles this file after the
// exercise file under grade, in one translation unit: the probes that run your code. What runs
// none of it (the baseline, cuBLAS, the operands' fill) is in grader_kernels.cu, compiled once,
// not at each edit of your exercise.
#include "grader/12_wgmma_tma_gemm/device_probes.hpp"

#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda/cuda_check.hpp"
#include "common/cuda/device_buffer.hpp"
#include "common/cuda/kernel_module.hpp"
#include "grader/12_wgmma_tma_gemm/exercise2_cases.hpp"

namespace ch12::probes {

namespace probe_code {

// Where the kernels of this unit keep the interface's record of a wait that gave up
// (gpu::module_global).
__global__ void locate_gave_up(unsigned long long* address) {
  *address = reinterpret_cast<unsigned long long>(&ch11::ptx::mbarrier_gave_up);
}

__global__ void wgmma_probe_kernel(int* has) {
  *has = ptx::has_wgmma();
}

// Fills the shared memory of every SM with 0xff bytes (fp16 NaN), so that a block of the next
// kernel that reads a stage before its bytes land reads NaN, not what an earlier block left.
__global__ void poison_shared_kernel(int bytes) {
  extern __shared__ unsigned char shared[];
  for (int i = static_cast<int>(threadIdx.x); i < bytes / 16; i += static_cast<int>(blockDim.x)) {
    reinterpret_cast<uint4*>(shared)[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
  }
}

template <OperandLayout Layout, int Stages>
void launch_ring(const CUtensorMap& a, const CUtensorMap& b, float* C, int M, int N, int K) {
  static const bool shared_set = [] {
    GPU_CHECK(cudaFuncSetAttribute(gpu::launched(wgmma_gemm_kernel<Layout, Stages>),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    return true;
  }();
  (void)shared_set;
  const unsigned blocks = static_cast<unsigned>((M / kBlockM) * (N / kBlockN));
  gpu::launch(wgmma_gemm_kernel<Layout, Stages>, blocks, kThreads, kSharedBytes, a, b, C, M, N, K);
}

template <OperandLayout Layout>
void launch_layout(const CUtensorMap& a, const CUtensorMap& b, float* C, int M, int N, int K,
                   int stages) {
  static_assert(kStages == 4, "launch_layout instantiates rings of 2, 3 and 4 stages");
  switch (stages) {
    case 2: launch_ring<Layout, 2>(a, b, C, M, N, K); break;
    case 3: launch_ring<Layout, 3>(a, b, C, M, N, K); break;
    case 4: launch_ring<Layout, 4>(a, b, C, M, N, K); break;
    default:
      throw std::invalid_argument("launch_yours: a ring of " + std::to_string(stages) +
                                  " stages; the kernel takes 2 .. " + std::to_string(kStages));
  }
}

}  // namespace probe_code
using namespace probe_code;  // external names: a judge finds these kernels by name

std::optional<std::string> no_wgmma_here() {
  static const std::optional<std::string> reason = []() -> std::optional<std::string> {
    gpu::DeviceBuffer<int> has(1);
    has.fill_bytes(0);
    gpu::launch(wgmma_probe_kernel, 1, 1, 0, has.get());
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      return std::string("no code of this grader runs on this GPU (") + cudaGetErrorString(e) + ")";
    }
    if (has.download()[0] == 1) return std::nullopt;
    int device = 0;
    cudaDeviceProp p{};
    GPU_CHECK(cudaGetDevice(&device));
    GPU_CHECK(cudaGetDeviceProperties(&p, device));
    return "wgmma needs sm_90a machine code, which runs on compute capability 9.0 (Hopper) only; "
           "this GPU is " +
           std::string(p.name) + " (" + std::to_string(p.major) + "." + std::to_string(p.minor) +
           ")";
  }();
  return reason;
}

void launch_yours(OperandLayout layout, const __half* A, const __half* B, float* C, int M, int N,
                  int K, int stages) {
  // The maps of each buffer, shape and layout, made once: encoding them is host work that would
  // otherwise sit between the timing events.
  using Key = std::tuple<int, const __half*, const __half*, int, int, int>;
  static std::map<Key, std::pair<CUtensorMap, CUtensorMap>> maps;
  const Key key{static_cast<int>(layout), A, B, M, N, K};
  auto found = maps.find(key);
  if (found == maps.end()) {
    found = maps.emplace(key, std::make_pair(make_operand_map(layout, A, M, K, kBlockM, "A's map"),
                                             make_operand_map(layout, B, N, K, kBlockN, "B's map")))
                .first;
  }
  const CUtensorMap &a = found->second.first, &b = found->second.second;
  switch (layout) {
    case OperandLayout::k128B: launch_layout<OperandLayout::k128B>(a, b, C, M, N, K, stages); break;
    case OperandLayout::k64B: launch_layout<OperandLayout::k64B>(a, b, C, M, N, K, stages); break;
    case OperandLayout::k32B: launch_layout<OperandLayout::k32B>(a, b, C, M, N, K, stages); break;
    case OperandLayout::kInterleave:
      launch_layout<OperandLayout::kInterleave>(a, b, C, M, N, K, stages);
      break;
  }
}

void launch_yours_on_poisoned_shared(OperandLayout layout, const __half* A, const __half* B,
                                     float* C, int M, int N, int K, int stages) {
  int device = 0, sms = 0, bytes = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPU_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  bytes = bytes / 16 * 16;
  GPU_CHECK(cudaFuncSetAttribute(gpu::launched(poison_shared_kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  gpu::launch(poison_shared_kernel, sms, 1024, bytes, bytes);
  GPU_CHECK(cudaGetLastError());
  launch_yours(layout, A, B, C, M, N, K, stages);
}

void forget_waits_that_gave_up() {
  ch11::ptx::MbarrierGaveUp none{};
  none.first_bar = 0xffffffffu;
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaMemcpy(gpu::module_global(&ch11::ptx::mbarrier_gave_up, locate_gave_up), &none,
                       sizeof none, cudaMemcpyHostToDevice));
}

std::optional<std::string> wait_that_gave_up() {
  ch11::ptx::MbarrierGaveUp seen{};
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaMemcpy(&seen, gpu::module_global(&ch11::ptx::mbarrier_gave_up, locate_gave_up),
                       sizeof seen, cudaMemcpyDeviceToHost));
  if (seen.happened == 0) return std::nullopt;
  // The given part keeps full[s] at barriers[s] and empty[s] at barriers[kStages + s]; the
  // lowest address mbarrier_init was given is full[0]'s.
  std::string which = "an mbarrier at shared address " + std::to_string(seen.bar);
  if (seen.first_bar != 0xffffffffu && seen.bar >= seen.first_bar) {
    const unsigned index = (seen.bar - seen.first_bar) / 8;
    if (index < 2u * kStages) {
      which = std::string(index < static_cast<unsigned>(kStages) ? "full[" : "empty[") +
              std::to_string(index % kStages) + "]";
    }
  }
  const bool producer = seen.thread < 128;
  return "Thread " + std::to_string(seen.thread) + " (the " +
         (producer ? std::string("producer")
                   : "consumer warpgroup " + std::to_string(seen.thread / 128 - 1)) +
         ") of block " + std::to_string(seen.block) + " waited on " + which +
         " for its phase of parity " + std::to_string(seen.parity) + ", and that phase did not " +
         "complete in " + std::to_string(ch11::ptx::kMbarrierWaitLimitNs / 1000000) +
         " ms: it never would.";
}

namespace probe_code {

// The pairing probe: K-tiles put into shared memory at `offset` bytes past a 1024-byte boundary
// (A) and at the 1024-byte boundary 40 KiB on (B), read by one warpgroup's wgmma with the
// descriptors given (relative to the boundary: the kernel adds its shared address). A tile "written
// in a layout" is written there by the TMA itself, through a map of that layout, as the GEMM's
// stages are: the grader holds no formula of the TMA's layouts (that is chapter 11's exercise 1).
// The layouts no TMA map writes (a gap after each core matrix, padded rows) are images the host
// wrote byte for byte.
constexpr int kProbeBOffset = 40960;
constexpr int kProbeShared = 2 * kProbeBOffset + 2048;

// One of the probe's two tiles: by the TMA through `map` in `layout` (by_tma), or the host's
// image at `image` (`bytes` long).
struct ProbeTile {
  int by_tma;
  OperandLayout layout;
  int rows;
  const unsigned char* image;
  int bytes;
};

__device__ void load_tile_by_tma(OperandLayout layout, unsigned dst, const CUtensorMap* map,
                                 int rows, unsigned bar) {
  switch (layout) {
    case OperandLayout::k128B:
      ptx::load_operand_tile<OperandLayout::k128B>(dst, map, rows, 0, 0, bar);
      break;
    case OperandLayout::k64B:
      ptx::load_operand_tile<OperandLayout::k64B>(dst, map, rows, 0, 0, bar);
      break;
    case OperandLayout::k32B:
      ptx::load_operand_tile<OperandLayout::k32B>(dst, map, rows, 0, 0, bar);
      break;
    case OperandLayout::kInterleave:
      ptx::load_operand_tile<OperandLayout::kInterleave>(dst, map, rows, 0, 0, bar);
      break;
  }
}

__global__ void pairing_probe_kernel(const __grid_constant__ CUtensorMap a_map, ProbeTile a,
                                     const __grid_constant__ CUtensorMap b_map, ProbeTile b,
                                     int offset, const unsigned long long* descriptors,
                                     float* out) {
  extern __shared__ __align__(1024) unsigned char shared[];
  __shared__ __align__(8) unsigned long long landed;
  const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  unsigned char* const base = shared + (1024 - raw % 1024) % 1024;
  const unsigned base_at = static_cast<unsigned>(__cvta_generic_to_shared(base));
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&landed));
  const int t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    ptx::mbarrier_init(bar, 1);
    ptx::fence_mbarrier_init();
  }
  __syncthreads();
  if (!a.by_tma) {
    for (int i = t; i < a.bytes; i += 128) base[offset + i] = a.image[i];
  }
  if (!b.by_tma) {
    for (int i = t; i < b.bytes; i += 128) base[kProbeBOffset + i] = b.image[i];
  }
  if (t == 0) {
    const int bytes = (a.by_tma ? a.rows * kKTileBytes : 0) + (b.by_tma ? b.rows * kKTileBytes : 0);
    ptx::mbarrier_arrive_expect_tx(bar, static_cast<unsigned>(bytes));
    if (a.by_tma) load_tile_by_tma(a.layout, base_at + offset, &a_map, a.rows, bar);
    if (b.by_tma) {
      load_tile_by_tma(b.layout, base_at + kProbeBOffset, &b_map, b.rows, bar);
    }
  }
  ptx::mbarrier_wait(bar, 0);
  ch11::ptx::fence_proxy_async();  // the host images' writes above, seen by wgmma's reads
  __syncthreads();
  const unsigned long long at = static_cast<unsigned long long>(base_at) >> 4;
  float d[kAccumulators];
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) d[i] = 0.0f;
  ptx::fence_accumulators(d);
  ptx::wgmma_fence();
#pragma unroll
  for (int k16 = 0; k16 < 4; ++k16) {
    ptx::wgmma_m64n256k16(d, descriptors[2 * k16] + at, descriptors[2 * k16 + 1] + at);
  }
  ptx::wgmma_commit();
  ptx::wgmma_wait<0>();
  ptx::fence_accumulators(d);
#pragma unroll
  for (int r = 0; r < kAccumulators; ++r) {
    out[accumulator_row(t, r) * kBlockN + accumulator_col(t, r)] = d[r];
  }
}

std::vector<__half> small_integers(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<__half> v(n);
  for (__half& x : v) x = __float2half(static_cast<float>(value(rng)));
  return v;
}

// The host's image of A's K-tile (64 x kKTile halves `src`) written by hand as `how` (one of the
// two layouts no TMA map writes), core matrices or rows `spacing` bytes apart: each byte where
// exercise 2a's model says the tile holds it (spec::written_at, at the tile's own start).
std::vector<unsigned char> tile_image(const std::vector<__half>& src, Written how,
                                      unsigned spacing) {
  const Pairing tile{how, OperandLayout::kInterleave, spacing, 0, Change::kNone, 0};
  std::vector<unsigned char> image(static_cast<std::size_t>(64) * spacing, 0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(src.data());
  for (unsigned r = 0; r < 64; ++r) {
    for (unsigned byte = 0; byte < static_cast<unsigned>(kKTileBytes); ++byte) {
      image[spec::written_at(tile, r, byte)] = bytes[r * kKTileBytes + byte];
    }
  }
  return image;
}

// A probe tile of `src` (rows x kKTile halves) written as `how` (in `layout`), with what the
// kernel needs of it kept alive: the source and its map for the TMA, or the host's image.
struct PreparedTile {
  ProbeTile tile{};
  CUtensorMap map{};
  std::unique_ptr<gpu::DeviceBuffer<__half>> source;
  std::unique_ptr<gpu::DeviceBuffer<unsigned char>> image;
};

std::unique_ptr<PreparedTile> prepare_tile(const std::vector<__half>& src, int rows,
                                           OperandLayout layout, Written how,
                                           unsigned spacing = 0) {
  auto p = std::make_unique<PreparedTile>();
  p->tile.layout = layout;
  p->tile.rows = rows;
  if (how == Written::kByTma) {
    p->tile.by_tma = 1;
    p->source = std::make_unique<gpu::DeviceBuffer<__half>>(src);
    p->map =
        make_operand_map(layout, p->source->get(), rows, kKTile, rows, "the grader's probe tile");
  } else {
    const std::vector<unsigned char> image = tile_image(src, how, spacing);  // A's 64 rows
    p->image = std::make_unique<gpu::DeviceBuffer<unsigned char>>(image);
    p->tile.image = p->image->get();
    p->tile.bytes = static_cast<int>(image.size());
  }
  return p;
}

// Runs the probe on A's tile (64 rows, `offset` bytes past the boundary) and B's (256 rows),
// prepared as prepare_tile does, with descriptors made by `describe(which, k16)` (which: 0 for A,
// 1 for B; relative to the 1024-byte boundary) and returns how many elements of C differ from the
// exact product.
template <typename Describe>
int wrong_elements(const std::vector<__half>& A, const PreparedTile& a, unsigned offset,
                   const std::vector<__half>& B, const PreparedTile& b, Describe describe) {
  unsigned long long descriptors[8];
  for (int k16 = 0; k16 < 4; ++k16) {
    for (int which = 0; which < 2; ++which) descriptors[2 * k16 + which] = describe(which, k16);
  }
  gpu::DeviceBuffer<unsigned long long> d(
      std::vector<unsigned long long>(descriptors, descriptors + 8));
  gpu::DeviceBuffer<float> out(static_cast<std::size_t>(64) * kBlockN);
  out.fill_bytes(0xff);
  static const bool shared_set = [] {
    GPU_CHECK(cudaFuncSetAttribute(gpu::launched(pairing_probe_kernel),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, kProbeShared));
    return true;
  }();
  (void)shared_set;
  gpu::launch(pairing_probe_kernel, 1, 128, kProbeShared, a.map, a.tile, b.map, b.tile,
              static_cast<int>(offset), d.get(), out.get());
  GPU_CHECK_KERNEL("the grader's wgmma probe");
  const std::vector<float> got = out.download();
  int wrong = 0;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < kBlockN; ++j) {
      float exact = 0;  // small integers: exact in fp32
      for (int k = 0; k < kKTile; ++k) {
        exact += __half2float(A[static_cast<std::size_t>(i) * kKTile + k]) *
                 __half2float(B[static_cast<std::size_t>(j) * kKTile + k]);
      }
      wrong += got[static_cast<std::size_t>(i) * kBlockN + j] != exact;
    }
  }
  return wrong;
}

}  // namespace probe_code

int wrong_elements_of_pairing(const Pairing& pairing, unsigned seed) {
  std::mt19937 rng(seed);
  const std::vector<__half> A = small_integers(64 * kKTile, rng),
                            B = small_integers(256 * kKTile, rng);
  const auto a = prepare_tile(A, 64, pairing.layout, pairing.how, pairing.spacing);
  const auto b = prepare_tile(B, 256, OperandLayout::k128B, Written::kByTma);
  return wrong_elements(A, *a, pairing.tile_offset, B, *b, [&](int which, int k16) {
    // A's: your own descriptors (exercise 1, once right), changed as the pairing says.
    return which == 0 ? encode_descriptor(spec::pairing_descriptor(pairing, k16))
                      : wgmma_descriptor(OperandLayout::k128B, kProbeBOffset, 256, k16, 0);
  });
}

int wrong_elements_with_your_descriptors(OperandLayout layout, unsigned seed) {
  std::mt19937 rng(seed);
  const std::vector<__half> A = small_integers(64 * kKTile, rng),
                            B = small_integers(256 * kKTile, rng);
  // Your descriptors, for tiles at the probe's places; a start address outside the tile (or a
  // layout type that is not the tile's) would read shared memory the probe did not write.
  for (int k16 = 0; k16 < 4; ++k16) {
    for (const auto& [tile, rows] : {std::pair<unsigned, int>{0u, 64}, {kProbeBOffset, 256}}) {
      const DescriptorFields f = decode_descriptor(wgmma_descriptor(layout, tile, rows, k16, 0));
      if (f.start_address < tile ||
          f.start_address >= tile + static_cast<unsigned>(rows) * kKTileBytes)
        return -1;
    }
  }
  const auto a = prepare_tile(A, 64, layout, Written::kByTma);
  const auto b = prepare_tile(B, 256, layout, Written::kByTma);
  return wrong_elements(A, *a, 0, B, *b, [&](int which, int k16) {
    return which == 0 ? wgmma_descriptor(layout, 0, 64, k16, 0)
                      : wgmma_descriptor(layout, kProbeBOffset, 256, k16, 0);
  });
}

}  // namespace ch12::probes
