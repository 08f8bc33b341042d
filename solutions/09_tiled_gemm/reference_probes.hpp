// Chapter 09, the maintainers' probes: the variants of exercise 2's kernel that the lesson
// compares (section 2), which a hand-out must not hold (each is a whole answer to exercise 2c).
#pragma once

namespace ch09::reference_probes {

/// Which outputs a thread owns: 8 distinct float4 chunks per group of 8 lanes (rows
/// 4 (t / 16) + 64 h, columns 4 (t % 16) + 64 g), or the reference's lane pairs sharing chunks.
enum class Mapping { kEightQuads, kLanePairs };

/// How the K loop feeds the tiles: one buffer of each, two barriers per K-step (the simplest
/// kernel the skeleton's outline allows); two buffers indexed `s % 2`, one barrier; two buffers
/// with the loop unrolled by two steps (the reference's loop).
enum class Loop { kSingleBuffer, kModTwo, kUnrolled };

/// Launches the variant on the contract's grid (M, N multiples of 128, K of 8): the contract's
/// global loads and the exercise's as_offset tile, with the given mapping and loop.
void launch_variant(Mapping mapping, Loop loop, const float* A, const float* B, float* C, int M,
                    int N, int K);

}  // namespace ch09::reference_probes
