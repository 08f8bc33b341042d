/// @file thresholds.hpp
/// @brief Every GPU threshold of every grader, with the H200 measurement that justifies it.
///
/// A threshold is a ratio or a fit measured within the same run, never an absolute time. The
/// reference solution's value on the H200 is in `measurements/h200/<file>.tsv`, which the GPU
/// checks rewrite (see README); the host check "thresholds have headroom" fails when a committed
/// measurement no longer clears its threshold by the stated headroom.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>

namespace grader {

/// One pass/fail limit of a GPU check.
struct Threshold {
  const char* id;             ///< "chapter.quantity", as the graders ask for it.
  double value;               ///< The limit.
  bool is_minimum;            ///< Pass when measured >= value; otherwise pass when <= value.
  const char* h200_file;      ///< Measurement file (without .tsv) of the H200 reference run.
  const char* h200_quantity;  ///< Quantity in that file that the reference solution reached.
  /// How far the reference must clear the limit: measured / value >= headroom for a minimum,
  /// value / measured >= headroom for a maximum.
  double headroom;
  const char* why;  ///< What the limit guards against, and why this value.
};

/// The table.
inline constexpr Threshold kThresholds[] = {
    {"ch01.cost_fit_r_squared", 0.90, true, "ch01_bank_indexing", "fit.r_squared", 1.05,
     "Load latency of one warp grows linearly with wavefronts (about 2 cycles each on H200), so "
     "correct predictions fit the measured cycles almost exactly; one wrong prediction for a "
     "32-way or broadcast pattern drops R^2 far below 0.9."},
    {"ch01.cycles_per_wavefront", 0.5, true, "ch01_bank_indexing", "fit.cycles_per_wavefront", 2.0,
     "Each extra wavefront costs the warp about 2 SM cycles on H200; a fit with a slope near 0 "
     "means the predictions do not explain the measured cost."},
    {"ch01.max_residual_wavefronts", 0.75, false, "ch01_bank_indexing",
     "fit.max_residual_wavefronts", 2.0,
     "The pattern farthest from the fitted line, in units of one wavefront's cost. On H200 the "
     "reference lies on the line (0.00); a prediction off by one wavefront (stride 2 predicted "
     "conflict-free) lands 0.86 away, off by three (bytes predicted 4-way) 2.6 away."},
    {"ch02.cost_fit_r_squared", 0.90, true, "ch02_strides", "fit.r_squared", 1.05,
     "As chapter 01, for the student's own microbenchmark over 16 strides: correct predictions "
     "fit its cycles almost exactly on H200."},
    {"ch02.cycles_per_wavefront", 0.5, true, "ch02_strides", "fit.cycles_per_wavefront", 2.0,
     "Each extra wavefront costs about 2 SM cycles on H200; a flat fit means the predictions or "
     "the microbenchmark do not see the conflicts."},
    {"ch02.max_residual_wavefronts", 0.75, false, "ch02_strides", "fit.max_residual_wavefronts",
     2.0,
     "No stride may sit more than 0.75 wavefronts' cost off the line: an off-by-one "
     "prediction lands about 0.9 away."},
    {"ch02.layout_speedup", 1.25, true, "ch02_strides", "owner_sums.speedup_over_thread_major", 1.2,
     "owner_sums_kernel with a conflict-free layout against the 32-way thread-major one, 2^21 "
     "owners, same run. On H200 the padded layout reached 1.52x (0.86 of copy against 0.56): "
     "eight warps per block hide much of the conflict, so the margin is modest."},
    {"ch03.uniform_speedup", 1.35, true, "ch03_broadcast_multicast", "speedup.uniform_keys", 1.2,
     "A conflict-free table against the naive one (3- or 4-way for uniform random keys) on 2^25 "
     "keys x 16 lookups, same run; 32 interleaved copies reached 1.67x on H200."},
    {"ch03.other_keys_speed", 0.75, true, "ch03_broadcast_multicast", "speedup.one_key_for_all",
     1.1,
     "Where the naive table has no conflict (one key, four keys, sequential keys) 32 copies ran "
     "at 0.87 of its speed on H200 (a 32 KiB table leaves room for 7 blocks per SM, not 8); a "
     "layout much slower than that wastes what it saves."},
    {"ch04.padding_speedup", 2.0, true, "ch04_tile_columns", "column_sums.speedup_over_unpadded",
     1.2,
     "Column sums through a padded tile[32][33] against the grader's 32-way tile[32][32], "
     "8192 x 8192 floats, same run."},
    {"ch05.speedup_over_naive", 2.0, true, "ch05_tiled_transpose", "transpose.speedup_over_naive",
     1.2,
     "The tiled transpose (32x8 threads, tile[32][32], 32-way column reads) against the naive one "
     "(stride-n writes), 8192 x 8192 floats, same run; the shared reference measured 0.39 "
     "against 0.14 of copy on H200."},
    {"ch06.fraction_of_copy", 0.70, true, "ch06_padded_transpose", "transpose.fraction_of_copy",
     1.2,
     "The padded transpose against the device copy, 8192 x 8192 floats, same run. Leaves margin "
     "below the reference (0.92) and fails chapter 05's conflicted tile (0.43 of copy on H200)."},
    {"ch06.reference_fraction_of_copy", 0.85, true, "ch06_padded_transpose",
     "transpose.fraction_of_copy", 1.0,
     "The reference solution itself must reach 0.85 of copy on H200 (issue 5)."},
    {"ch07.fraction_of_copy", 0.70, true, "ch07_swizzled_transpose", "transpose.fraction_of_copy",
     1.2, "As chapter 06: the swizzle removes the same conflicts without the padding."},
    {"ch07.reference_fraction_of_copy", 0.85, true, "ch07_swizzled_transpose",
     "transpose.fraction_of_copy", 1.0,
     "The swizzled reference must reach what issue 5 asks of the padded one, 0.85 of copy on "
     "H200; it measured 0.89, a little under the padded 0.92."},
    {"ch08.fraction_of_copy", 0.90, true, "ch08_wide_accesses", "transpose.fraction_of_copy", 1.05,
     "The float4 transpose (64 x 64 tile, 16 x 16 threads) against the device copy, 8192 x 8192 "
     "floats, same run; the reference measured 0.97. Speed cannot tell the layouts apart: the "
     "row-major tile (a 32-wavefront load) measured 0.92, and chapter 06's scalar kernel 0.92 "
     "too; the host layout check and the counters are what demand conflict-free 16-byte "
     "accesses."},
    {"ch08.reference_fraction_of_copy", 0.93, true, "ch08_wide_accesses",
     "transpose.fraction_of_copy", 1.0,
     "The reference solution itself must reach 0.93 of copy on H200 (issue 5; the shared "
     "reference's 64 x 64 float4 kernel reached 0.95)."},
};

/// The threshold named `id`; throws std::out_of_range naming it when the table lacks it.
inline const Threshold& threshold(const char* id) {
  for (const Threshold& t : kThresholds) {
    if (std::strcmp(t.id, id) == 0) return t;
  }
  throw std::out_of_range(std::string("no threshold named ") + id + " in grader/thresholds.hpp");
}

/// True when `measured` passes threshold `t`.
inline bool passes(const Threshold& t, double measured) {
  return t.is_minimum ? measured >= t.value : measured <= t.value;
}

}  // namespace grader
