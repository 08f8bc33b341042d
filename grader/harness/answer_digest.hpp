/// @file answer_digest.hpp
/// @brief Digests of graded answers: a host check tells a right answer from a wrong one without
/// the hand-out holding the answer.
///
/// Most graded functions are checked against properties (a bijection, bounds, alignment,
/// conflict-freedom through the bank model) or against the GPU itself. Where no property pins the
/// values down (the byte address of each lane of a declared pattern, the general swizzle, where
/// the TMA puts each byte), a host check compares a digest of the student's values, case by case,
/// with a digest of the reference solution's: each chapter's `grader/NN_slug/answer_digests.hpp`,
/// written by the maintainers' answer key (`solutions/NN_slug/answer_key.cpp`, which holds it to
/// the reference in every maintainers' build). The digest of a typical wrong answer may be listed
/// too, under the case's name and `#` and the slip's name, so that the feedback can name the
/// principle missed without showing a right value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grader {

/// One digest of a chapter's table.
struct AnswerDigest {
  const char* name;     ///< The case, "tma_smem_offset(k64B, 32)"; "CASE#slip" for a slip's.
  std::uint64_t value;  ///< digest_of(CASE, values).
};

/// One case's values, as an exercise (the student's, the reference, a typical wrong answer)
/// gives them.
struct DigestCase {
  std::string name;               ///< The case, as the checks name it.
  std::vector<long long> values;  ///< Its values, in the order the checks compute them.
};

/// FNV-1a (64 bits) of `name`, a NUL byte and each value's 8 bytes, low byte first.
std::uint64_t digest_of(const std::string& name, const std::vector<long long>& values);

/// How a case's values compare with a chapter's table of digests.
struct DigestMatch {
  bool right = false;  ///< They are the reference's values.
  std::string slip;    ///< When not: the listed slip they are ("" when none).
};

/// Compares `c` with the digests of its case in `table`. Throws std::logic_error naming the case
/// when the table has no digest for it (the answer key is out of date: a maintainers' error).
DigestMatch match_digest(const std::vector<AnswerDigest>& table, const DigestCase& c);

/// Of a chapter's digested cases, how many are wrong, the first wrong one and its slip.
template <typename Case>
struct FirstWrong {
  int wrong = 0;     ///< Cases whose values are not the reference's.
  Case first{};      ///< The first of them (when `wrong` > 0).
  std::string slip;  ///< The listed slip the first one is ("" when none).
};

/// Runs `match(case)` (a DigestMatch) over `cases`: the count of wrong ones and the first.
template <typename Case, typename Match>
FirstWrong<Case> first_wrong(const std::vector<Case>& cases, Match match) {
  FirstWrong<Case> out;
  for (const Case& c : cases) {
    const DigestMatch m = match(c);
    if (m.right || out.wrong++ > 0) continue;
    out.first = c;
    out.slip = m.slip;
  }
  return out;
}

/// The header `grader/<folder>/answer_digests.hpp` that holds `digests` (right answers first,
/// then the slips, as given).
std::string answer_digest_header(const std::string& folder,
                                 const std::vector<std::pair<std::string, std::uint64_t>>& digests);

}  // namespace grader
