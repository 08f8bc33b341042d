// Chapter 05: the question of exercise 2, the two tile accesses of the predictions, as requests
// for the bank model (the student's calculator), on the contract kernel's tile and on the
// variant's. It holds no answer.
#pragma once

#include <string>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/harness/variant.hpp"

namespace ch05::spec {

/// The contract kernel's tile, float tile[32][32], with row and column 5: variant 0's case.
inline TileCase kernel_tile() {
  return {4, kTile, 5, 5};
}

/// Variant `v`'s tile. Variant 0: the kernel's own. A class variant: short, float or float4
/// elements (not double: a row of 32 doubles is the store the lesson draws, whatever the tile),
/// rows of an even 34 to 72 of them but 64 (never the 32 of the kernel's tile, nor 64, whose
/// float and short columns cost what the kernel's does: the answers everyone knows stay variant
/// 0's; even, so that the column's cost varies with the pitch's factors of 2; at most 36 KiB),
/// any row and any column.
inline TileCase tile_case(const grader::variant::Identity& v) {
  if (v.self_study()) return kernel_tile();
  grader::variant::Draw d(v, "ch05");
  TileCase c{};
  c.element_bytes = d.pick(std::vector<int>{2, 4, 16});
  std::vector<int> pitches;  // even, 34 to 72, but not 64: its column costs as the kernel's does
  for (int p = 34; p <= 72; p += 2) {
    if (p != 64) pitches.push_back(p);
  }
  c.pitch = d.pick(pitches);
  c.row = d.between(0, kTile - 1);
  c.column = d.between(0, kTile - 1);
  return c;
}

/// Fresh tiles for exercise 2's rules (grader::variant::fresh_draw): three of each element size,
/// any pitch of the contract, any row and column.
inline std::vector<TileCase> fresh_tiles() {
  grader::variant::Draw d = grader::variant::fresh_draw("ch05");
  std::vector<TileCase> tiles;
  for (const int bytes : {2, 4, 16, 2, 4, 16, 2, 4, 16}) {
    tiles.push_back(
        {bytes, d.between(kTile, 80), d.between(0, kTile - 1), d.between(0, kTile - 1)});
  }
  return tiles;
}

/// "c.element_bytes == 2 && c.pitch == 40 && c.row == 3 && c.column == 7": the tile as a
/// condition on the rules' parameter.
inline std::string condition(const TileCase& c) {
  return "c.element_bytes == " + std::to_string(c.element_bytes) +
         " && c.pitch == " + std::to_string(c.pitch) + " && c.row == " + std::to_string(c.row) +
         " && c.column == " + std::to_string(c.column);
}

/// The tile's declaration, "short tile[32][40]".
inline std::string declaration(const TileCase& c) {
  const char* type = c.element_bytes == 2   ? "short"
                     : c.element_bytes == 4 ? "float"
                     : c.element_bytes == 8 ? "double"
                                            : "float4";
  return std::string(type) + " tile[32][" + std::to_string(c.pitch) + "]";
}

/// A warp of the tile `c` storing row c.row (lane x writes tile[row][x]).
inline smem::WarpRequest tile_row_store(const TileCase& c) {
  return smem::WarpRequest::from_lanes(c.element_bytes, smem::Op::kStore, [c](int t) {
    return static_cast<long long>(c.element_bytes) * (c.row * c.pitch + t);
  });
}

/// A warp of the tile `c` loading column c.column (lane x reads tile[x][column]).
inline smem::WarpRequest tile_column_load(const TileCase& c) {
  return smem::WarpRequest::from_lanes(c.element_bytes, smem::Op::kLoad, [c](int t) {
    return static_cast<long long>(c.element_bytes) * (t * c.pitch + c.column);
  });
}

/// A warp of the kernel's float tile[32][32] storing row `row` (lane x writes tile[row][x]).
inline smem::WarpRequest tile_row_store(int row) {
  return tile_row_store(TileCase{4, kTile, row, 0});
}

/// A warp of the kernel's float tile[32][32] loading column `column` (lane x reads
/// tile[x][column]).
inline smem::WarpRequest tile_column_load(int column) {
  return tile_column_load(TileCase{4, kTile, 0, column});
}

/// "a warp storing row 5 of float tile[32][32] (lane x writes tile[5][x])".
inline std::string store_text(const TileCase& c) {
  const std::string r = std::to_string(c.row);
  return "a warp storing row " + r + " of " + declaration(c) + " (lane x writes tile[" + r +
         "][x])";
}

/// "a warp loading column 5 of float tile[32][32] (lane x reads tile[x][5])".
inline std::string load_text(const TileCase& c) {
  const std::string col = std::to_string(c.column);
  return "a warp loading column " + col + " of " + declaration(c) + " (lane x reads tile[x][" +
         col + "])";
}

}  // namespace ch05::spec
