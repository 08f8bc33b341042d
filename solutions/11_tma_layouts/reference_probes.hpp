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

}  // namespace ch11::reference_probes
