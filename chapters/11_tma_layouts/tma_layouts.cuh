/// @file tma_layouts.cuh
/// @brief Chapter 11 interface: Hopper TMA layouts.
///
/// DO NOT MODIFY THIS FILE. The grader is compiled against it; change only
/// tma_layouts_exercise.cu.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

/// Chapter 11: Hopper TMA layouts.
namespace ch11 {

/// Returned by an exercise function that has not been written yet.
constexpr int kNotImplemented = -1;

/// The TMA's four layouts; the values are those of CUtensorMapSwizzle.
enum class TmaSwizzle : int {
  kNone = 0,  ///< CU_TENSOR_MAP_SWIZZLE_NONE
  k32B = 1,   ///< CU_TENSOR_MAP_SWIZZLE_32B
  k64B = 2,   ///< CU_TENSOR_MAP_SWIZZLE_64B
  k128B = 3,  ///< CU_TENSOR_MAP_SWIZZLE_128B
};

// ---------------------------------------------------------------------------------------------
// Exercise 1: where the TMA puts each byte.
// ---------------------------------------------------------------------------------------------

/// Exercise 1. The TMA has written a box into shared memory at a 1024-byte aligned address, in
/// `mode`. Return the offset from that address of byte `byte` of box row `row`. The box's rows
/// are `box_row_bytes` long in global memory: a multiple of 16, for a swizzled mode at most its
/// span (32, 64 or 128 bytes), for kNone at most 1024 (256 floats). 0 <= byte < box_row_bytes,
/// 0 <= row < 256. Official grading tries every such box.
__host__ __device__ int tma_smem_offset(TmaSwizzle mode, int box_row_bytes, int row, int byte);

// ---------------------------------------------------------------------------------------------
// Exercise 2: reading a TMA box.
// ---------------------------------------------------------------------------------------------

/// How a warp reads down a column of a box of 32 float rows.
enum class ColumnRead : int {
  kWords,   ///< lane t reads the 4-byte float C of row t
  kChunks,  ///< lane t reads the 16-byte chunk of row t that holds float C (floats 0-3: chunk 0)
};

/// Exercise 2a. Your rule: the wavefronts of that warp's read, float C = `column` of each row, on
/// a box of 32 rows of `box_row_bytes` written in `mode`: for any row the mode allows (a multiple
/// of 16 bytes, at most the mode's span; for kNone at most 144) and any column of it. The grader
/// asks your variant's box of each mode (its report lists them; variant 0: rows as wide as the
/// mode allows, 32, 64 or 128 bytes, 128 bytes for kNone, and C = 0), then fresh boxes each run
/// draws.
int predicted_column_wavefronts(TmaSwizzle mode, ColumnRead read, int box_row_bytes, int column);

/// Exercise 2b. A padded float tile of N columns, as a box of a wider matrix in kNone: the
/// least row pitch, in floats, greater than N that a TMA box row can have. N is your variant's
/// (padded_tile_columns() below; variant 0: N = 32).
int least_padded_pitch();

/// Exercise 2c. Your rule: the wavefronts of a warp reading column 0 (lane t: float 0 of row t)
/// of 32 rows at a pitch of `pitch_floats`, a multiple of 4 floats from 36 to 64. The grader asks
/// it at your least_padded_pitch() and at fresh pitches each run draws.
int predicted_padded_column_wavefronts(int pitch_floats);

/// The N of exercise 2b (33 .. 60), your variant's, for code that wants it (the grader defines
/// it; its report says the same).
int padded_tile_columns();

// ---------------------------------------------------------------------------------------------
// Exercise 3: a TMA-fed transpose.
// ---------------------------------------------------------------------------------------------

constexpr int kBoxRows = 64;                        ///< Rows of `in` per box.
constexpr int kBoxCols = 32;                        ///< Floats of a box row: 128 bytes.
constexpr int kBoxRowBytes = kBoxCols * 4;          ///< 128.
constexpr int kBoxBytes = kBoxRows * kBoxRowBytes;  ///< 8 KiB.
constexpr int kTileBoxes = 2;                       ///< Boxes side by side in a tile of `in`.
constexpr int kTileCols = kTileBoxes * kBoxCols;    ///< A tile is kBoxRows x kTileCols floats.
constexpr int kTileBytes = kTileBoxes * kBoxBytes;  ///< 16 KiB.
constexpr int kStages = 4;                          ///< Tiles in flight per block.
constexpr int kThreads = 256;                       ///< Threads per block.
constexpr int kOutTiles = 2;  ///< Output tiles, one filling while one is stored.
/// Dynamic shared memory the kernel takes: kStages input tiles (kTileBoxes boxes each),
/// kOutTiles output tiles (kTileCols rows of kBoxRows floats each), and 1024 bytes of room to
/// align the boxes.
constexpr int kSharedBytes = (kStages + kOutTiles) * kTileBytes + 1024;

/// Exercise 3a: kTransposeSwizzle in your file, the layout in which the kernel's reads are
/// conflict-free. Given: the tensor map tma_transpose_kernel reads: `in`, `rows` x `cols`
/// floats, row-major, in boxes of kBoxRows x kBoxCols, in the layout kTransposeSwizzle names.
/// `cols` is a multiple of 4 (the TMA needs 16-byte row pitches).
CUtensorMap make_input_map(const float* in, int rows, int cols);

/// The tensor map tma_transpose_kernel writes: `out`, `cols` x `rows` floats, row-major, in
/// boxes of kTileCols x kBoxRows, no swizzle. Given: it is in your file only so that you see it.
CUtensorMap make_output_map(float* out, int rows, int cols);

/// Exercise 3b. out = in^T, in rows x cols floats (both multiples of 4, any size otherwise).
/// Blocks of kThreads threads, any number of them, kSharedBytes of dynamic shared memory. The
/// matrix is cut into tiles of kBoxRows x kTileCols floats, each kTileBoxes boxes side by side;
/// block b transposes tiles b, b + gridDim.x, ... (numbered down the columns of tiles: tile t
/// is tile row t % tiles_y of tile column t / tiles_y), keeping kStages of them in flight:
/// - one mbarrier per stage, initialised by one thread, fenced (ptx::fence_mbarrier_init) and
///   published to the block (__syncthreads) before first use;
/// - each tile TMA-loaded through `in_map` into a 1024-byte aligned stage, box by box, by one
///   thread that first arrives on the stage's mbarrier expecting every byte the tile's loads
///   will count (section 5 of the lesson says which, at the matrix's edge too);
/// - every thread waits for the phase of the stage's mbarrier that this load completes before
///   reading the stage, and the stage is loaded again only after every thread has read it;
/// - the warps read each tile in 16-byte chunks (4 per thread) without bank conflicts,
///   transpose 4 x 4 blocks in registers, and write them to an output tile in 16-byte chunks
///   (4 per thread), without bank conflicts;
/// - the writers fence (ptx::fence_proxy_async), then a __syncthreads(), then one thread
///   TMA-stores the tile through `out_map` and commits it; a tile is written again only after
///   its previous store has read it (ptx::tma_store_wait_read), while the other tile is stored;
/// - that thread waits for all its stores (ptx::tma_store_wait_all) before the block ends.
/// No other shared access.
__global__ void tma_transpose_kernel(const __grid_constant__ CUtensorMap in_map,
                                     const __grid_constant__ CUtensorMap out_map, int rows,
                                     int cols);

/// The PTX instructions exercise 3 is built from, one function each. They need compute
/// capability 9.0: compiled for an older GPU they trap, and the chapter's GPU checks skip there.
/// Shared addresses are shared-window addresses, as __cvta_generic_to_shared gives.
#ifdef __CUDACC__
namespace ptx {

/// Emits the PTX where the GPU has the TMA (sm_90 and newer); traps elsewhere.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CH11_PTX(...) asm volatile(__VA_ARGS__)
#else
#define CH11_PTX(...) __trap()
#endif

/// Orders this thread's earlier mbarrier_init calls before its later memory operations, with
/// release semantics at cluster scope: an operation fence that applies to mbarrier.init only,
/// so that other threads (of the block, and of a cluster's other blocks, after a barrier) see
/// the mbarriers initialised (PTX ISA, "membar/fence"). It is not the proxy fence
/// (fence_proxy_async below), which orders ordinary shared-memory writes before the TMA's
/// reads. Then __syncthreads(), before any thread uses the mbarriers.
__device__ __forceinline__ void fence_mbarrier_init() {
  CH11_PTX("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/// Arrives on `bar` and tells it to expect `bytes` more bytes from the TMA this phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned bar, unsigned bytes) {
  CH11_PTX("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
           : "memory");
}

/// What the first mbarrier wait that gave up was waiting for (see mbarrier_wait). The grader
/// clears it before each launch of your kernel and reads it after, to report a wait that never
/// completed as such instead of a test that hangs.
struct MbarrierGaveUp {
  unsigned happened;   ///< 0 until a wait gives up, then 1
  unsigned bar;        ///< the shared address of the mbarrier it waited on
  unsigned parity;     ///< the parity of the phase it waited for
  unsigned block;      ///< blockIdx.x of the waiting thread
  unsigned thread;     ///< threadIdx.x of the waiting thread
  unsigned first_bar;  ///< the lowest shared address mbarrier_init was given (the grader sets
                       ///< it to 0xffffffff), to number the stages
};
/// The record of the first wait that gave up, one per translation unit (the grader compiles
/// your file and its own probes as one).
static __device__ MbarrierGaveUp mbarrier_gave_up;

/// How long mbarrier_wait waits before it gives up: far longer than any box takes to land.
constexpr unsigned long long kMbarrierWaitLimitNs = 500ull * 1000 * 1000;

/// Makes the mbarrier at `bar` wait for `arrivals` arrivals per phase, and notes the lowest
/// mbarrier address initialised (mbarrier_gave_up.first_bar) for the grader's messages.
__device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned arrivals) {
  CH11_PTX("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
  // Every block lays out its shared memory alike, so block 0 alone notes it: thousands of
  // blocks updating one global word would queue behind each other.
  if (blockIdx.x == 0) atomicMin(&mbarrier_gave_up.first_bar, bar);
}

/// Whether the phase of `bar` with parity `parity` has completed; may wait a little first.
__device__ __forceinline__ bool mbarrier_try_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  CH11_PTX(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

/// The GPU's clock in nanoseconds.
__device__ __forceinline__ unsigned long long global_nanoseconds() {
  unsigned long long now = 0;
  CH11_PTX("mov.u64 %0, %%globaltimer;\n" : "=l"(now));
  return now;
}

/// Zero, but during the grader's stress run of your transpose (see mbarrier_wait), which sets
/// it: the step, in nanoseconds, by which a warp is held after a wait that succeeded.
static __constant__ unsigned mbarrier_wait_hold_ns;

/// After a wait that succeeded, holds the calling warp for (its warp number + bar / 8) % 8
/// times mbarrier_wait_hold_ns: during the stress run, warps of a block leave the same wait
/// up to 7 steps apart, in an order that changes from one mbarrier to the next, as warps may
/// on a busy GPU. Does nothing otherwise.
__device__ __forceinline__ void hold_after_wait(unsigned bar) {
  const unsigned step = mbarrier_wait_hold_ns;
  if (step == 0) return;
  const unsigned long long hold = 1ull * ((threadIdx.x / 32 + bar / 8) % 8) * step;
  const unsigned long long start = global_nanoseconds();
  while (global_nanoseconds() - start < hold) __nanosleep(256);
}

/// Waits until the phase of `bar` with parity `parity` (0, 1, 0, ...) has completed, and
/// returns true. A phase that has not completed after kMbarrierWaitLimitNs never will (its
/// arrivals or its bytes will not come): the wait then records what it waited for in
/// mbarrier_gave_up and returns false, and every later wait that would have to wait returns
/// false within a few tries, so that the kernel ends and the grader can say which wait never
/// completed. Parity 1 before the mbarrier's first phase has completed does not wait: it asks for
/// the phase before, which counts as completed. In the grader's stress run a wait that succeeded
/// holds its warp a few microseconds more before it returns (hold_after_wait): a pipeline that
/// keeps the contract gives the same results however long its warps are held.
__device__ __forceinline__ bool mbarrier_wait(unsigned bar, unsigned parity) {
  if (mbarrier_try_wait(bar, parity)) {
    hold_after_wait(bar);
    return true;
  }
  // The record and the clock are read only every 64th try: one global word that every
  // waiting warp of every block read on each try would queue the whole GPU behind it.
  volatile MbarrierGaveUp* const record = &mbarrier_gave_up;
  const unsigned long long start = global_nanoseconds();
  for (unsigned tries = 1; !mbarrier_try_wait(bar, parity); ++tries) {
    if (tries % 64 != 0) continue;
    if (record->happened != 0) return false;
    if (global_nanoseconds() - start < kMbarrierWaitLimitNs) continue;
    if (atomicCAS(&mbarrier_gave_up.happened, 0u, 1u) == 0u) {
      record->bar = bar;
      record->parity = parity;
      record->block = blockIdx.x;
      record->thread = threadIdx.x;
      __threadfence();
    }
    return false;
  }
  hold_after_wait(bar);
  return true;
}

/// TMA load of the box at (x, y) = (column, row) of `map` into shared memory at `dst`; its
/// bytes complete on the mbarrier `bar`.
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap* map, int x, int y,
                                            unsigned bar) {
  CH11_PTX(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, "
      "{%2, %3}], [%4];\n" ::"r"(dst),
      "l"(map), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

/// Makes this thread's ordinary writes to shared memory visible to the TMA: every writing
/// thread fences, then a __syncthreads(), then one thread issues the TMA store.
__device__ __forceinline__ void fence_proxy_async() {
  CH11_PTX("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// TMA store of the box at `src` in shared memory to (x, y) of `map`; parts past the matrix's
/// edge are not written.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int x, int y, unsigned src) {
  CH11_PTX(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map),
      "r"(x), "r"(y), "r"(src)
      : "memory");
}

/// Closes this thread's group of TMA stores.
__device__ __forceinline__ void tma_store_commit() {
  CH11_PTX("cp.async.bulk.commit_group;\n" ::: "memory");
}

/// Waits until at most `Pending` of this thread's groups of TMA stores have not yet read their
/// shared memory: the others' may be reused.
template <int Pending>
__device__ __forceinline__ void tma_store_wait_read() {
  CH11_PTX("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}

/// Waits until this thread's TMA stores are complete.
__device__ __forceinline__ void tma_store_wait_all() {
  CH11_PTX("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

#undef CH11_PTX

}  // namespace ptx
#endif  // __CUDACC__

}  // namespace ch11
