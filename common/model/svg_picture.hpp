/// @file svg_picture.hpp
/// @brief The bank picture of a warp request as an SVG drawing, for documents.
#pragma once

#include <string>

#include "common/model/bank_model.hpp"

namespace smem {

/// The same picture as draw_request() as a standalone SVG document: one column per bank, one
/// row per distinct word a bank serves, each cell labelled with the lowest lane on that word
/// (`*` when other lanes share it), the banks that need the most rows in red, shared words in
/// blue, one panel per group of lanes. `title` (escaped) heads the drawing when not empty.
std::string draw_request_svg(const WarpRequest& request, const std::string& title = "");

}  // namespace smem
