// Chapter 11: what is wrong with your tma_transpose_kernel, for the GPU checks of exercise 3b.
#pragma once

#include <optional>

#include "grader/harness/feedback_message.hpp"

namespace ch11::diagnosis {

/// Your maps, made once on a small shape: the feedback when make_input_map or make_output_map
/// is refused (reported here, once, as such), or nothing.
std::optional<grader::Feedback> maps_refused();

/// Your kernel on the correctness shapes, after the stress run. A wait that gave up is reported
/// first, as such (the wrong results follow from it); a kernel that writes nothing, as not
/// written yet. Once a wait has given up, every later wait of the process gives up at once
/// (ptx::mbarrier_wait), so nothing more is run: what would run then says nothing of the kernel.
/// Nothing when every run is exact.
std::optional<grader::Feedback> transpose_problem();

}  // namespace ch11::diagnosis
