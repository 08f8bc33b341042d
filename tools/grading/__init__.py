"""The instructor's grading tool (tools/grade): one submission or a whole class, into the
gradebook formats a course platform accepts. See docs/grading.md."""
