#include <cstdlib>
#include <cstring>

#include "grader/harness/feedback_message.hpp"

namespace grader {

FeedbackMode feedback_mode() {
#if defined(WORKBOOK_FEEDBACK_EXAM)
  return FeedbackMode::kExam;
#else
  const char* reveal = std::getenv("WORKBOOK_REVEAL");
  return reveal != nullptr && *reveal != '\0' && std::strcmp(reveal, "0") != 0
             ? FeedbackMode::kReveal
             : FeedbackMode::kTeach;
#endif
}

}  // namespace grader
