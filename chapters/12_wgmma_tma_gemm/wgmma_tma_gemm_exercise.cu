// Chapter 12 exercises: wgmma fed by TMA tiles. This is the file you edit.
//
// Read README.md in this folder first; the contracts are in wgmma_tma_gemm.cuh (do not modify it).
// Grade your work with
//     meson test -C build --suite ch12
#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"

namespace ch12 {

// ---- your code: exercise 1 ----
// Exercise 1 (FILL ME IN, roughly 12 lines): the descriptor of rows row0 .. of a K-tile the TMA
// wrote at tile_address in `layout`, for k16 step k16 (section 1 of the lesson). Fill a
// DescriptorFields: which slab holds the step's first core matrix (bytes 32 k16 .. 32 k16 + 15
// of each row; in kInterleave the step's other 16 bytes lie in the next slab, which the LBO
// reaches), where row row0 starts in it, and (in a slab wider than 32 bytes) where the step
// starts in the row; then the two byte offsets, which depend on the layout. As shipped it
// describes nothing.
__host__ __device__ unsigned long long wgmma_descriptor(OperandLayout layout, unsigned tile_address,
                                                        int rows, int k16, int row0) {
  (void)layout, (void)tile_address, (void)rows, (void)k16, (void)row0;
  return 0;  // TODO
}
// ---- end of your code ----

// Exercise 2a: your rule: does wgmma read the tile right in `pairing`? 1 or 0.
// ---- your code: exercise 2a ----
int predicted_reads_right(const Pairing& pairing) {
  (void)pairing;
  return kNotImplemented;  // TODO
}
// ---- end of your code ----

// Exercise 2b: the C tile's pitch in floats. As shipped: unpadded.
// ---- your code: exercise 2b ----
__host__ __device__ int c_tile_pitch() {
  return kBlockN;  // TODO
}
// ---- end of your code ----

// Exercise 2c: the wavefronts of one warp's 8-byte accumulator store at `pitch`.
// ---- your code: exercise 2c ----
int predicted_epilogue_wavefronts(int pitch) {
  (void)pitch;
  return kNotImplemented;  // TODO
}
// ---- end of your code ----

namespace {
// Where the stages start: at a multiple of 1024 bytes (the 128-byte swizzle's repeat).
__device__ __forceinline__ unsigned char* aligned_stages(unsigned char* raw) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  return raw + ((1024 - address % 1024) % 1024);
}
}  // namespace

// Exercise 3: the GEMM (the contract is in wgmma_tma_gemm.cuh, the pipeline in section 3 of the
// lesson). Given: where everything sits in shared memory, the mbarriers, the register split and
// the accumulators. Yours: the producer's loop (step 1), the consumers' k-loop (step 2) and the
// epilogue (step 3). As shipped the kernel writes nothing.
template <OperandLayout Layout, int Stages>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                      const __grid_constant__ CUtensorMap b_map, float* C, int M, int N, int K) {
  static_assert(Stages >= 2 && Stages <= kStages, "a ring of 2 .. kStages stages");
  // Given: where everything sits in shared memory.
  // [stage 0: A's K-tile (kBlockM rows), B's K-tile (kBlockN rows)] [stage 1] ... ; after the
  // k-loop the same memory holds the C tile (kBlockM rows at pitch c_tile_pitch() floats).
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // The mbarriers: full[s] is barriers[s], empty[s] is barriers[kStages + s].
  __shared__ __align__(8) unsigned long long barriers[2 * kStages];
  unsigned char* const stage_memory = aligned_stages(smem_raw);
  const unsigned stages_at = static_cast<unsigned>(__cvta_generic_to_shared(stage_memory));
  const auto stage_at = [&](int s) { return stages_at + static_cast<unsigned>(s * kStageBytes); };
  const auto full_at = [&](int s) {
    return static_cast<unsigned>(__cvta_generic_to_shared(&barriers[s]));
  };
  const auto empty_at = [&](int s) {
    return static_cast<unsigned>(__cvta_generic_to_shared(&barriers[kStages + s]));
  };
  const int t = static_cast<int>(threadIdx.x), warpgroup = t / 128;
  const BlockTile tile_of_c = block_tile(static_cast<int>(blockIdx.x), M, N);
  const int m0 = tile_of_c.m0, n0 = tile_of_c.n0;
  const int k_tiles = (K + kKTile - 1) / kKTile;

  // Given: full[s] completes a phase on the producer's one arrival and the stage's bytes;
  // empty[s] on one arrival of each consumer warpgroup.
  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(full_at(s), 1);
      ptx::mbarrier_init(empty_at(s), kConsumers);
    }
    ptx::fence_mbarrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    // The producer warpgroup: few registers; one thread issues every load.
    ptx::setmaxnreg_dec<40>();
    if (t == 0) {
      // ---- your code: exercise 3, step 1 ----
      // Step 1 (FILL ME IN, roughly 9 lines): keep the ring full. Load every K-tile kt of A's
      // rows m0 .. and B's rows n0 .. into stage kt % Stages (A's tile first, B's after it), as
      // soon as the consumers have released that stage's previous K-tile and no sooner, telling
      // full[s] how many bytes the stage will receive. Which phase of empty[s] to wait for is
      // yours to work out (chapter 11's section 5, "Phases alternate", and the comment on
      // ch11::ptx::mbarrier_wait: a phase's parity, and what parity 1 means before the first
      // phase). Return if a wait gave up. The grader runs problems with many K-tiles per stage
      // and names any mbarrier phase that never completed.
      (void)a_map, (void)b_map, (void)m0, (void)n0, (void)k_tiles, (void)stage_at, (void)empty_at;
      // ---- end of your code ----
    }
    return;
  }

  // The consumer warpgroups: rows 64 c .. 64 c + 63 of the block's tile, all kBlockN columns.
  ptx::setmaxnreg_inc<232>();
  const int c = warpgroup - 1, tc = t % 128;
  float d[kAccumulators];
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) d[i] = 0.0f;
  ptx::fence_accumulators(d);
  // ---- your code: exercise 3, step 2 ----
  // Step 2 (FILL ME IN, roughly 20 lines): multiply every K-tile once its bytes have landed:
  // this warpgroup's 64 rows of A (rows 64 c ..) by all of B, through your wgmma_descriptor, k16
  // step by k16 step, as section 3 says wgmma must be issued. Hand each stage back to the
  // producer (one arrival per consumer warpgroup) as soon as no wgmma can still read it: not
  // sooner (the TMA would overwrite operands under the tensor cores), and not so late that the
  // tensor cores wait. Stop if a wait gave up; either way, no wgmma may still be writing the
  // accumulators when the loop is left. The grader checks the product with every ring length
  // and times it against cuBLAS.
  (void)c, (void)tc, (void)full_at;
  // ---- end of your code ----

  // ---- your code: exercise 3, step 3 ----
  // Step 3 (FILL ME IN, roughly 14 lines): the epilogue, unless a wait gave up. Write the
  // block's tile of C through a C tile in shared memory (it reuses the stages' memory: section
  // 3 says when that is safe): the accumulators go in as the thread holds them (accumulator_row
  // and accumulator_col, 8-byte pairs, at c_tile_pitch()), and C receives whole rows, in 16-byte
  // stores by consecutive threads. The grader checks C and counts the wavefronts of the C
  // tile's stores (section 5).
  (void)C, (void)N, (void)stage_memory;
  // ---- end of your code ----
}

}  // namespace ch12
