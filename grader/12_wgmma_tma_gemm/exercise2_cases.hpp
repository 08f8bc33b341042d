// Chapter 12: the pitches exercise 2c asks about, drawn from the student's variant
// (grader/harness/variant.hpp). Variant 0 asks what the workbook always asked: pitches of 258
// and 272 floats. A class variant draws two even pitches from 258 .. 330 floats, never the
// lesson's worked 256 (nor 288 and 320, which repeat its banks), 260 or 264, and never two whose
// stores take the same wavefronts.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "chapters/12_wgmma_tma_gemm/wgmma_tma_gemm.cuh"
#include "common/model/bank_model.hpp"
#include "grader/12_wgmma_tma_gemm/answer_cases.hpp"
#include "grader/harness/variant.hpp"

namespace ch12::spec {

/// The least and the greatest pitch exercise 2c draws.
constexpr int kLeastAskedPitch = 258;
constexpr int kGreatestAskedPitch = 330;

/// The even pitches a class variant may ask about: 258 .. 330 but 260 and 264, and but the
/// multiples of 32 (288, 320), whose rows start in the banks of the lesson's worked 256.
inline std::vector<int> askable_pitches() {
  std::vector<int> out;
  for (int p = kLeastAskedPitch; p <= kGreatestAskedPitch; p += 2) {
    if (p != 260 && p != 264 && p % 32 != 0) out.push_back(p);
  }
  return out;
}

/// The variant's pitches of exercise 2c, ascending (variant 0: 258 and 272).
inline std::vector<int> epilogue_pitches(const grader::variant::Identity& v) {
  grader::variant::Draw d(v, "ch12");
  if (d.self_study()) return {258, 272};
  const std::vector<int> all = askable_pitches();
  const int first = d.pick(all);
  const int cost = smem::analyze(epilogue_store(first)).wavefronts;
  std::vector<int> others;
  for (int p : all) {
    if (p != first && smem::analyze(epilogue_store(p)).wavefronts != cost) others.push_back(p);
  }
  std::vector<int> out = {first, d.pick(others)};
  std::sort(out.begin(), out.end());
  return out;
}

/// "258 and 272 floats".
inline std::string pitches_text(const std::vector<int>& pitches) {
  std::string s;
  for (size_t i = 0; i < pitches.size(); ++i) {
    s += (i == 0 ? "" : i + 1 == pitches.size() ? " and " : ", ") + std::to_string(pitches[i]);
  }
  return s + " floats";
}

}  // namespace ch12::spec
