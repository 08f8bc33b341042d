// Chapter 05 host checks: the predictions for the tile store and load, against the bank model,
// on the variant's tile and on fresh ones.
#include <string>
#include <vector>

#include "chapters/05_tiled_transpose/tiled_transpose.cuh"
#include "common/model/bank_model.hpp"
#include "grader/05_tiled_transpose/tile_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

WORKBOOK_CHECK(ex2) {
  // Your variant's tile (variant 0: the kernel's own, row 5 and column 5), then fresh ones.
  std::vector<ch05::TileCase> tiles = {ch05::spec::tile_case(grader::variant::current())};
  for (const ch05::TileCase& c : ch05::spec::fresh_tiles()) tiles.push_back(c);
  const auto store = grader::judge_rule(
      "predicted_tile_store_wavefronts(c)", ch05::kNotImplemented, tiles,
      ch05::predicted_tile_store_wavefronts,
      [](const ch05::TileCase& c) { return ch05::spec::tile_row_store(c); }, ch05::spec::store_text,
      [](const ch05::TileCase&) -> std::string {
        return "the store writes one row of the tile: 32 consecutive elements.";
      });
  GRADER_EXPECT(!store, *store);
  const auto load = grader::judge_rule(
      "predicted_tile_load_wavefronts(c)", ch05::kNotImplemented, tiles,
      ch05::predicted_tile_load_wavefronts,
      [](const ch05::TileCase& c) { return ch05::spec::tile_column_load(c); },
      ch05::spec::load_text,
      [](const ch05::TileCase& c) {
        return "the load reads one column: rows are " + std::to_string(c.pitch) + " elements of " +
               std::to_string(c.element_bytes) +
               " bytes = " + std::to_string(c.pitch * c.element_bytes) + " bytes apart.";
      });
  GRADER_EXPECT(!load, *load);
}
