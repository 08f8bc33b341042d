/// @file measurements.hpp
/// @brief Numbers the GPU checks measured, written where an instructor can commit them.
#pragma once

#include <string>

namespace grader {

/// Records one measured number for the file written at the end of a GPU run.
/// `file` names the file (a chapter's is "chNN_slug"), `quantity` the number.
void record_measurement(const std::string& file, const std::string& quantity, double value,
                        const std::string& unit);

/// Sets the GPU description written in the files' headers.
void set_measurement_gpu(const std::string& description);

/// Writes every recorded number as `<file>.tsv` into the folder named by the environment
/// variable WORKBOOK_MEASUREMENTS_DIR (meson test sets it to `<build>/measurements`); does
/// nothing when the variable is unset. Columns: quantity, value, unit. Rows an earlier run wrote
/// to the same file (the reference checks write after the GPU checks) are kept, unless this run
/// recorded the same quantity.
void write_measurements();

/// Reads one quantity from such a file; throws std::runtime_error naming the file and the
/// quantity when either is missing.
double read_measurement(const std::string& path, const std::string& quantity);

}  // namespace grader
