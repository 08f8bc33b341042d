#include "grader/harness/answer_digest.hpp"

#include <cstdio>
#include <stdexcept>

namespace grader {

std::uint64_t digest_of(const std::string& name, const std::vector<long long>& values) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  const auto add = [&h](unsigned char byte) {
    h ^= byte;
    h *= 0x100000001b3ull;  // FNV prime
  };
  for (const char c : name) add(static_cast<unsigned char>(c));
  add(0);
  for (const long long v : values) {
    const auto u = static_cast<unsigned long long>(v);
    for (int i = 0; i < 8; ++i) add(static_cast<unsigned char>(u >> (8 * i)));
  }
  return h;
}

DigestMatch match_digest(const std::vector<AnswerDigest>& table, const DigestCase& c) {
  const std::uint64_t d = digest_of(c.name, c.values);
  bool listed = false;
  DigestMatch match;
  for (const AnswerDigest& entry : table) {
    const std::string name = entry.name;
    if (name == c.name) {
      listed = true;
      match.right = match.right || entry.value == d;
    } else if (name.rfind(c.name + "#", 0) == 0 && entry.value == d) {
      match.slip = name.substr(c.name.size() + 1);
    }
  }
  if (!listed) {
    throw std::logic_error("the answer digests have no case '" + c.name +
                           "': the chapter's answer_digests.hpp is out of date (a maintainer "
                           "regenerates it: ninja -C <solution build> answer-digests)");
  }
  if (match.right) match.slip.clear();
  return match;
}

std::string answer_digest_header(
    const std::string& folder, const std::vector<std::pair<std::string, std::uint64_t>>& digests) {
  std::string out =
      "// Digests of the right answers of this chapter's digested cases, and of typical slips\n"
      "// (CASE#slip), for the host checks (grader/harness/answer_digest.hpp). Written by the\n"
      "// answer key, solutions/" +
      folder +
      "/answer_key.cpp,\n"
      "// in a maintainers' build (ninja -C <build> answer-digests), which also holds it to the\n"
      "// reference solution; do not edit.\n"
      "#pragma once\n\n#include <vector>\n\n#include \"grader/harness/answer_digest.hpp\"\n\n"
      "namespace grader::chapter {\n\ninline const std::vector<AnswerDigest> kAnswerDigests = {\n";
  for (const auto& [name, value] : digests) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%016llxull", static_cast<unsigned long long>(value));
    std::string quoted;
    for (const char c : name) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    out += "    {\"" + quoted + "\", " + hex + "},\n";
  }
  out += "};\n\n}  // namespace grader::chapter\n";
  return out;
}

}  // namespace grader
