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

/// What to do with a prediction that still returns kNotImplemented: the same for every
/// prediction, and nothing about its answer.
inline constexpr const char* kFillInPrediction =
    "work it out on paper as the lesson does and return your number in place of "
    "kNotImplemented (build/tools/analyze_smem_access draws an access, to check your count).";

/// The feedback for a prediction `call` (for example "predicted_wavefronts(kStructMember)") that
/// still returns kNotImplemented: told only that, and what to do.
inline Feedback unfilled_prediction(const std::string& call) {
  return Feedback(call + " is not filled in yet: it still returns kNotImplemented.")
      .hint(kFillInPrediction);
}

/// The feedback of a GPU check that measures what prediction `call` says, while the host
/// exercise `exercise` ("exercise 1") that asks it is not done.
inline Feedback prediction_not_done(const std::string& call, const std::string& exercise) {
  return Feedback(call + " is not filled in yet: " + exercise + " is not done.")
      .hint(exercise + " first: its host checks (meson test --suite host) say what it asks.");
}

/// The feedback for a prediction `predicted` of the wavefronts a request takes, returned by the
/// student's call `call` (for example "predicted_wavefronts(kStructMember)"), when the model says
/// `model`. An unfilled prediction (`not_implemented`) is told only that, and what to do
/// (unfilled_prediction). A wrong one is told
/// whether it is too high or too low, the `principle` it missed (when the grader can tell, else
/// empty) and the `hint`; the model's number and its picture of `request` only with a reveal.
inline Feedback prediction_feedback(const std::string& call, int predicted, int model,
                                    int not_implemented, const smem::WarpRequest& request,
                                    const std::string& principle, const std::string& hint) {
  if (predicted == not_implemented) return unfilled_prediction(call);
  Feedback f(call + " is " + std::to_string(predicted) + ", which is too " +
             (predicted > model ? "high" : "low") + ".");
  if (!principle.empty()) f.line(principle);
  f.hint(hint);
  f.reveal("The bank model says " + wavefronts(model) + ":");
  f.reveal(draw(request));
  return f;
}

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
  return prediction_feedback(name + "()", predicted, model, not_implemented, request, "", hint);
}

}  // namespace grader
