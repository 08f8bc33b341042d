// Chapter 04 host checks: padded_pitch against the bank model, for every element size and
// widths 1 to 256.
#include <string>

#include "chapters/04_tile_columns/tile_columns.cuh"
#include "grader/04_tile_columns/pitch_spec.hpp"
#include "grader/harness/access_picture.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("ch04 exercise 1: padded_pitch is conflict-free and minimal", "[host]") {
  int wrong = 0;
  for (int bytes : {1, 2, 4, 8, 16}) {
    for (int width = 1; width <= 256; ++width) {
      const int pitch = ch04::padded_pitch(bytes, width);
      const std::string call =
          "padded_pitch(" + std::to_string(bytes) + ", " + std::to_string(width) + ")";
      if (pitch == ch04::kNotImplemented) {
        GRADER_FAIL(grader::Feedback(call + " is not implemented yet (it returns "
                                            "kNotImplemented).")
                        .hint("start from floats (4 bytes): which row lengths does the gcd law "
                              "of chapter 02 make conflict-free?"));
      }
      if (pitch < width || pitch > width + 64) {
        if (wrong++ == 0) {
          GRADER_EXPECT(false, grader::Feedback(call + " = " + std::to_string(pitch) +
                                                ": a row must hold its " + std::to_string(width) +
                                                " elements, with less than 64 of padding."));
        }
        continue;
      }
      const int column = ch04::spec::conflicting_column(bytes, width, pitch);
      if (column >= 0) {
        if (wrong++ == 0) {
          GRADER_EXPECT(
              false, grader::Feedback(call + " = " + std::to_string(pitch) + ": reading column " +
                                      std::to_string(column) + " at that pitch conflicts.")
                         .picture(grader::draw(ch04::spec::column_read(bytes, pitch, column)))
                         .hint("rows must start in different banks, or share words; count "
                               "the row length in 4-byte words."));
        }
        continue;
      }
      const int least = ch04::spec::least_pitch(bytes, width);
      if (pitch != least && wrong++ == 0) {
        GRADER_EXPECT(false, grader::Feedback(call + " = " + std::to_string(pitch) +
                                              " is conflict-free but not the least padding: " +
                                              std::to_string(least) + " is too.")
                                 .hint("padding costs shared memory: take the smallest pitch "
                                       "that works."));
      }
    }
  }
  GRADER_EXPECT(wrong == 0, grader::Feedback(std::to_string(wrong) +
                                             " of the 1280 (element size, width) pairs got a "
                                             "wrong pitch; the first is shown above."));
}
