/// @file prediction_check.hpp
/// @brief A student's prediction of a warp request's wavefronts, against the bank model.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/model/bank_model.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback_message.hpp"

namespace grader {

/// The feedback for a prediction `call` (for example "predicted_wavefronts(kStructMember)") that
/// still returns kNotImplemented: told only that, and what to do, the same for every prediction.
inline Feedback unfilled_prediction(const std::string& call) {
  return Feedback(call + " is not filled in yet: it still returns kNotImplemented.")
      .hint(
          "work it out on paper as the lesson does and return your number (where the function "
          "takes the case, the rule that gives it) in place of kNotImplemented "
          "(build/tools/analyze_smem_access draws an access, to check your count).");
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

/// The feedback for the first of `cases` on which the student's rule `call` (for example
/// "predicted_tile_load_wavefronts(c)") gives another number than the bank model's for the
/// request `request` builds; nothing when it is right on every case. cases[0] is the variant's;
/// the rest are fresh (variant::fresh_draw), so that a rule passes and a table of numbers does
/// not. `describe` says a case in words, `hint` what to look at in it.
template <typename Case, typename Rule, typename Request, typename Describe, typename Hint>
std::optional<Feedback> judge_rule(const std::string& call, int not_implemented,
                                   const std::vector<Case>& cases, Rule rule, Request request,
                                   Describe describe, Hint hint) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const int predicted = rule(cases[i]);
    const smem::WarpRequest r = request(cases[i]);
    const int model = smem::analyze(r).wavefronts;
    if (predicted == model) continue;
    if (predicted == not_implemented) {
      return Feedback(call + (i == 0 ? " is not filled in yet: it still returns kNotImplemented."
                                     : " returns kNotImplemented for a fresh case: " +
                                           describe(cases[i]) + "."))
          .hint(
              "work a few cases out on paper as the lesson does, then write the rule that "
              "gives them from the case's fields: it is graded on fresh cases too "
              "(build/tools/analyze_smem_access draws an access, to check a count).");
    }
    return prediction_feedback(call, predicted, model, not_implemented, r, "", hint(cases[i]))
        .line("The case: " + describe(cases[i]) +
              (i == 0 ? ", your variant's."
                      : ", a fresh one (right on the " + std::to_string(i) + " case" +
                            (i == 1 ? "" : "s") + " before it)."));
  }
  return std::nullopt;
}

}  // namespace grader
