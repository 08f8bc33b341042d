// Chapter 12 lesson checks (being written).
#include "grader/harness/lesson_checks.hpp"
