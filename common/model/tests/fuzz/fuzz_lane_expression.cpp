// libFuzzer target for the lane-expression parser. Build and run with clang (not part of the
// meson build, which uses the project's compiler):
//
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -I . \
//     common/model/tests/fuzz/fuzz_lane_expression.cpp common/model/lane_expression.cpp -o
//     fuzz_expr
//   mkdir corpus && printf 't << 2 | 1' >corpus/shift && printf 't*33*4' >corpus/stride33 &&
//     printf '(t%%8)*128 + ((t/8 ^ t%%8) & 7)*16' >corpus/swizzle
//   ./fuzz_expr -max_total_time=120 corpus
//
// (the three seeds: a shift, a stride and a swizzle, from which the fuzzer grows the rest).
// Any crash, sanitizer report, or error position outside the input aborts. What it found is kept
// in lane_expression_tests.cpp (kFoundByFuzzing), which meson runs on every build.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/model/lane_expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const smem::LaneExpression e = smem::LaneExpression::parse(text);
    for (std::int64_t t = 0; t < 32; ++t) {
      try {
        (void)e.evaluate(t);
      } catch (const smem::ExpressionError& error) {
        if (error.position() >= text.size()) std::abort();  // must point into the text
      }
    }
  } catch (const smem::ExpressionError& error) {
    if (error.position() > text.size()) std::abort();
  }
  return 0;
}
