/// @file prediction_check.hpp
/// @brief A student's prediction of a warp request's wavefronts, against the bank model.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace grader {

/// The feedback when `predicted`, returned by the student's function `name`, is not the
/// model's wavefronts for the request `build` makes; nothing when it is. `not_implemented` is
/// what the skeleton returns. A request the model refuses (a misaligned access built from the
/// student's own layout) is reported as not checkable yet.
inline std::optional<Feedback> judge_prediction(const std::string& name, int predicted,
                                                int not_implemented,
                                                const std::function<smem::WarpRequest()>& build,
                                                const std::string& hint) {
  smem::WarpRequest request;
  int model = 0;
  try {
    request = build();
    model = smem::analyze(request).wavefronts;
  } catch (const smem::InvalidRequest& e) {
    return Feedback(name + "() cannot be checked yet: the request itself is invalid (" + e.what() +
                    ").")
        .hint("make the layout exercise pass first.");
  }
  if (predicted == model) return std::nullopt;
  return Feedback(name + "() is " + std::to_string(predicted) + "; the request takes " +
                  std::to_string(model) + ".")
      .picture(predicted == not_implemented
                   ? std::string("  not implemented yet (it returns kNotImplemented)\n")
                   : draw(request))
      .hint(hint);
}

}  // namespace grader
