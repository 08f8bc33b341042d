/// @file warp_picture.hpp
/// @brief Terminal pictures of a warp's shared-memory request: lanes placed on the 32 banks.
#pragma once

#include <string>

#include "common/model/bank_model.hpp"

namespace smem {

/// How to draw a picture.
struct PictureStyle {
  bool colour = false;  ///< ANSI colours (conflicting banks red, shared words cyan).
  int max_rows = 8;     ///< Word rows drawn per group before the rest is summarised.
};

/// Draws a request as a table: one column per bank (0..31 across), one row per distinct word a
/// bank serves (row 1 is free, every further row costs one wavefront), each cell the lowest lane
/// that touches that word, followed by `*` when other lanes share the word (a broadcast).
/// Banks that serve the most words are marked `^` beneath the table. A request split into groups
/// (8- and 16-byte accesses, ldmatrix) gets one table per group that has an active lane.
///
/// Example, float stride 2 (`a[2 * lane]`), rows shortened here:
/// ```
/// 4-byte load, 32 active lanes: 1 group, 2 wavefronts (ideal 1, excess 1), 2-way
///  bank  0  1  2  3  4 ...
///  w1    0  .  1  .  2 ...
///  w2   16  . 17  . 18 ...
///        ^     ^     ^
/// ```
std::string draw_request(const WarpRequest& request, const PictureStyle& style = {});

/// The one-line summary that heads a picture, for example
/// `4-byte load, 32 active lanes: 1 group, 2 wavefronts (ideal 1, excess 1), 2-way`.
std::string summarize(const WarpRequest& request, const Analysis& analysis);

/// True when standard output is a terminal that should get colours (and NO_COLOR is unset).
bool stdout_wants_colour();

}  // namespace smem
