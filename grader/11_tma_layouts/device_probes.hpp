// Chapter 11: what the GPU checks run on the device, callable from host code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chapters/11_tma_layouts/tma_layouts.cuh"

namespace ch11::probes {

/// Launches your tma_transpose_kernel on `in` (rows x cols) into `out` (cols x rows) with
/// tensor maps from your make_input_map and make_output_map (made once per buffer and shape),
/// kThreads threads per block, kSharedBytes of dynamic shared memory, and one block per
/// 2 kStages tiles (at least one), so that every stage of a block is loaded twice. Throws
/// gpu::TmaMapError when a map is refused.
void launch_yours(const float* in, float* out, int rows, int cols);

/// As launch_yours, on `blocks` blocks.
void launch_yours_on(const float* in, float* out, int rows, int cols, int blocks);

/// Forgets any mbarrier wait of your kernel that gave up (ptx::mbarrier_gave_up), before the
/// checks run it.
void forget_waits_that_gave_up();

/// What the first mbarrier wait that gave up since forget_waits_that_gave_up() waited for, in
/// words (which block and thread, which mbarrier, which phase), or nothing if none gave up.
/// Waits for the GPU first.
std::optional<std::string> wait_that_gave_up();

/// The grader's stress run: ptx::mbarrier_wait holds a warp (its number + the mbarrier's
/// address / 8) % 8 steps of `step_ns` nanoseconds after each wait that succeeded (0: no hold,
/// as in every other run). Does not throw: it may be called after the context is lost.
void hold_warps_after_waits(unsigned step_ns);

/// The bits every word of shared memory holds after poison_shared_memory(): a NaN that no
/// input or output of the checks holds.
constexpr unsigned kSharedPoison = 0x7fbadbadu;

/// Fills the shared memory of every SM with kSharedPoison (a kernel of as many blocks as the
/// GPU has SMs, twice, each taking all the shared memory a block may), so that a kernel
/// launched next which reads a stage before its tile has landed reads the poison, not what an
/// earlier launch left there (shared memory is not cleared between kernels).
void poison_shared_memory();

/// How many elements of `out` (n x n) are not the transpose of an n x n matrix whose element k
/// holds k % 2^24 (every float of it exact): counted on the GPU, which reads 256 MiB of an
/// 8192 x 8192 result in well under a millisecond where a copy to the host takes a hundred.
long long wrong_in_numbered_transpose(const float* out, int n);

/// How many blocks launch_yours starts for a rows x cols matrix.
int blocks_for(int rows, int cols);

/// TMA-loads one box of box_rows x box_cols floats in `mode` into shared memory at a 1024-byte
/// aligned address plus `misalign` bytes (a multiple of 128), and returns the shared memory from
/// there on as words, box_rows x max(box_cols, 32) of them rounded up to whole 1024-byte atoms:
/// word k of the result is the float the TMA wrote at offset 4 k. Float (r, c) of the box holds
/// 4096 r + c + 1, so every word names its source (0 where nothing was written).
std::vector<float> dump_tma_box(TmaSwizzle mode, int box_rows, int box_cols, int misalign = 0);

/// Where the TMA put each float of a box (dump_tma_box(mode, box_rows, box_cols)): the byte
/// offset of float (r, c) at [r * box_cols + c], -1 where it was not found.
std::vector<int> tma_box_layout(TmaSwizzle mode, int box_rows, int box_cols);

}  // namespace ch11::probes
