"""The instructor's grading tool (tools/instructor/grade): one submission or a whole class, into the
gradebook formats a course platform accepts. See docs/grading.md."""
