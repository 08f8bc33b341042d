#include "grader/harness/random_seed.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "grader/harness/report.hpp"

namespace grader {

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    const char* fixed = std::getenv("WORKBOOK_SEED");
    const std::uint64_t s = fixed != nullptr
                                ? std::strtoull(fixed, nullptr, 10)
                                : static_cast<std::uint64_t>(
                                      std::chrono::steady_clock::now().time_since_epoch().count()) %
                                      1000000007ULL;
    const std::string line = "random inputs from seed " + std::to_string(s) +
                             " (replay: WORKBOOK_SEED=" + std::to_string(s) + " meson test ...)";
    std::cout << line << "\n";
    report::recorder().run().setting.push_back(line);
    return s;
  }();
  return seed;
}

std::uint64_t hidden_seed(std::uint64_t stream) {
  const char* drawn = std::getenv("WORKBOOK_HIDDEN_SEED");
  // splitmix64 of the seed and the stream: each stream its own sequence.
  std::uint64_t state =
      (drawn != nullptr ? std::strtoull(drawn, nullptr, 10) : 0) + 0x9E3779B97F4A7C15ull * stream;
  return splitmix64(state);
}

}  // namespace grader
