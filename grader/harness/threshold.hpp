/// @file threshold.hpp
/// @brief What a GPU threshold is, and how a chapter's table is searched.
///
/// Each chapter declares its own in its manifest, `grader/NN_slug/chapter.ini`, which the build
/// turns into a table in namespace grader::chapter (a grader holds one chapter). A threshold is a
/// ratio or a fit measured within the same run, never an absolute time. The reference solution's
/// value on the H200 is committed with the instructors' material
/// (`solutions/NN_slug/measurements/h200.tsv`, which a GPU run rewrites); the chapter's lesson
/// checks fail when it no longer clears its threshold by the headroom.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>

namespace grader {

/// Which side of the limit passes.
enum class Bound {
  kAtLeast,  ///< Pass when measured >= value.
  kAtMost,   ///< Pass when measured <= value.
};

/// One pass/fail limit of a GPU check.
struct Threshold {
  const char* name;           ///< Unique within its chapter ("fraction_of_copy").
  double value;               ///< The limit.
  Bound bound;                ///< Which side of the limit passes.
  const char* h200_quantity;  ///< Quantity in the chapter's H200 measurement file.
  /// How far the reference must clear the limit: measured / value >= headroom for kAtLeast,
  /// value / measured >= headroom for kAtMost.
  double headroom;
  const char* why;  ///< What the limit guards against, and why this value.
};

/// The threshold named `name` in `table`; throws std::out_of_range naming it when it is missing.
template <typename Table>
const Threshold& find_threshold(const Table& table, const char* name) {
  for (const Threshold& t : table) {
    if (std::strcmp(t.name, name) == 0) return t;
  }
  throw std::out_of_range(std::string("no threshold named ") + name +
                          " in this chapter's manifest (grader/NN_slug/chapter.ini)");
}

/// True when `measured` passes threshold `t`.
inline bool passes(const Threshold& t, double measured) {
  return t.bound == Bound::kAtLeast ? measured >= t.value : measured <= t.value;
}

/// How far `measured` clears `t`: measured / value for kAtLeast, value / measured for kAtMost.
inline double headroom_of(const Threshold& t, double measured) {
  return t.bound == Bound::kAtLeast ? measured / t.value : t.value / measured;
}

/// The technique guards' bar (chapters 05-10): a kernel that moves its data through shared
/// memory touches each 32-byte global sector it needs once; one that reads or writes global
/// memory where it should read its tile touches many times as many (a column of floats 8 times,
/// a GEMM's operands per multiply-add far more). At most this many times the minimum passes.
constexpr double kMostGlobalSectorsOverMinimum = 2.0;

}  // namespace grader
