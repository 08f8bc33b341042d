/// @file access_picture.hpp
/// @brief The picture of a warp access as graders print it: in colour on a terminal.
#pragma once

#include <string>

#include "common/model/bank_model.hpp"
#include "common/model/warp_picture.hpp"

namespace grader {

/// draw_request() with colours when standard output is a terminal (and NO_COLOR is unset).
inline std::string draw(const smem::WarpRequest& request) {
  smem::PictureStyle style;
  style.colour = smem::stdout_wants_colour();
  return smem::draw_request(request, style);
}

}  // namespace grader
