// Chapter 11, the maintainers' probes (solution mode only): the reference's TMA transpose with
// one of its fences or waits left out, to measure what leaving it out does on the GPU. The
// lesson quotes the counts; a hand-out has neither file.
#pragma once

namespace ch11::reference_probes {

/// What the reference transpose leaves out.
enum class LeftOut : int {
  kNothing,         ///< the reference as it is
  kInitFence,       ///< ptx::fence_mbarrier_init after the mbarriers' init
  kProxyFence,      ///< ptx::fence_proxy_async before the TMA store
  kWaitAllAtExit,   ///< ptx::tma_store_wait_all before the block ends
  kWaitReadOnReuse  ///< ptx::tma_store_wait_read before an output tile is written again
};

/// Runs the reference transpose without `left_out` `runs` times on an n x n matrix (element k
/// holds k modulo 2^24; out poisoned before each run) and returns in how many runs some element
/// was wrong.
int runs_with_wrong_results(LeftOut left_out, int n, int runs);

/// The reference's ring of stages against the design the ring replaces, on an n x n matrix
/// (element k holds k modulo 2^24): the reference kernel at the grader's launch
/// (ch11::probes::blocks_for: each stage loaded twice), and the same kernel with one stage and
/// one output tile, launched with a block for every tile; each checked for wrong elements
/// once, then timed in turns with the device copy, `rounds` rounds (medians, milliseconds).
struct DesignTimes {
  double copy_ms = 0, ring_ms = 0, one_tile_ms = 0;
  long long ring_wrong = -1, one_tile_wrong = -1;          ///< Wrong elements of one checked run.
  int ring_blocks = 0, one_tile_blocks = 0;                ///< The launches' grids.
  int ring_blocks_per_sm = 0, one_tile_blocks_per_sm = 0;  ///< What the occupancy API allows.
};
DesignTimes time_ring_and_one_tile_per_block(int n, int rounds);

}  // namespace ch11::reference_probes
