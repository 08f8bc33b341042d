#include "grader/harness/variant.hpp"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "grader/harness/random_seed.hpp"

#if !defined(WORKBOOK_VARIANT_ID)
#define WORKBOOK_VARIANT_ID "0"
#endif
#if !defined(WORKBOOK_VARIANT_STUDENT)
#define WORKBOOK_VARIANT_STUDENT ""
#endif

namespace grader::variant {

namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

ChapterCases*& registration() {
  static ChapterCases* chapter = nullptr;
  return chapter;
}

// A field of `<grader> cases`: tabs and line breaks would split it.
std::string field(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return text;
}
}  // namespace

std::string Identity::describe() const {
  switch (kind) {
    case Kind::kSelfStudy:
      return "variant 0 (self-study: the workbook's own cases, the same for everyone)";
    case Kind::kLowest: return "variant `lowest` (maintainers: every range at its low end)";
    case Kind::kHighest: return "variant `highest` (maintainers: every range at its high end)";
    case Kind::kStudent: break;
  }
  return "variant " + std::to_string(id) +
         (student.empty() ? std::string() : " (" + student + "'s workbook)");
}

std::string Identity::brief() const {
  switch (kind) {
    case Kind::kSelfStudy: return "variant 0 (self-study)";
    case Kind::kLowest: return "variant `lowest` (maintainers)";
    case Kind::kHighest: return "variant `highest` (maintainers)";
    case Kind::kStudent: break;
  }
  return "variant " + std::to_string(id) +
         (student.empty() ? std::string() : " (" + student + "'s)");
}

Identity of(const std::string& text) {
  Identity out;
  if (text == "lowest" || text == "highest") {
    out.kind = text == "lowest" ? Kind::kLowest : Kind::kHighest;
    return out;
  }
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("\"" + text.substr(0, 40) +
                                "\" is not a variant: a variant is a whole number from 0 to " +
                                std::to_string(kLargest) + " (0: self-study)");
  }
  out.id = static_cast<std::uint32_t>(std::stoul(text));
  out.kind = out.id == kSelfStudy ? Kind::kSelfStudy : Kind::kStudent;
  return out;
}

const Identity& current() {
  static const Identity v = [] {
    const char* env = std::getenv("WORKBOOK_VARIANT");
    const bool chosen = env != nullptr && *env != '\0';
    try {
      // Else the hand-out's VARIANT file, read and checked by the build.
      Identity out = of(chosen ? env : WORKBOOK_VARIANT_ID);
      if (!chosen) out.student = WORKBOOK_VARIANT_STUDENT;
      out.source = chosen                                    ? "WORKBOOK_VARIANT"
                   : out.self_study() && out.student.empty() ? "default"
                                                             : "VARIANT";
      return out;
    } catch (const std::invalid_argument& e) {
      std::cerr << (chosen ? "WORKBOOK_VARIANT: " : "VARIANT: ") << e.what()
                << (chosen ? ". Unset it to grade the hand-out's own variant." : "") << "\n";
      std::exit(2);
    }
  }();
  return v;
}

Draw::Draw(const Identity& v, const std::string& chapter)
    : kind_(v.kind), state_(fnv1a(chapter + ":" + std::to_string(v.id))) {
  splitmix64(state_);
}

Draw::Draw(std::uint64_t seed, const std::string& chapter)
    : kind_(Kind::kStudent), state_(fnv1a(chapter) ^ seed) {
  splitmix64(state_);
}

Draw fresh_draw(const std::string& chapter) {
  const bool official = std::getenv("WORKBOOK_HIDDEN_SEED") != nullptr;
  return Draw(official ? hidden_seed(0xF4E5) : run_seed(), chapter + ":fresh");
}

std::uint64_t Draw::next() {
  return splitmix64(state_);
}

int Draw::between(int lo, int hi) {
  if (lo > hi) throw std::invalid_argument("Draw::between: empty range");
  if (kind_ == Kind::kLowest) return lo;
  if (kind_ == Kind::kHighest) return hi;
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<long long>(hi) - lo) + 1;
  return static_cast<int>(lo + static_cast<long long>(next() % span));
}

std::size_t Draw::index(std::size_t n) {
  if (n == 0) throw std::invalid_argument("Draw::pick: no choices");
  return static_cast<std::size_t>(between(0, static_cast<int>(n) - 1));
}

std::vector<std::size_t> Draw::subset(std::size_t n, std::size_t count) {
  if (count > n) throw std::invalid_argument("Draw::some: more than there are");
  std::vector<std::size_t> chosen;
  if (kind_ == Kind::kLowest || kind_ == Kind::kHighest) {
    for (std::size_t i = 0; i < count; ++i)
      chosen.push_back(kind_ == Kind::kLowest ? i : n - count + i);
    return chosen;
  }
  // Selection sampling (Knuth's algorithm S): each subset of `count` equally likely, in order.
  std::size_t left = count;
  for (std::size_t i = 0; i < n && left > 0; ++i) {
    if (next() % (n - i) < left) {
      chosen.push_back(i);
      --left;
    }
  }
  return chosen;
}

Registration::Registration(ChapterCases cases) {
  if (registration() != nullptr) {
    std::cerr << "grader::variant: a chapter registered its cases twice\n";
    std::abort();
  }
  registration() = new ChapterCases(std::move(cases));
}

const ChapterCases* registered() {
  return registration();
}

int list_cases(std::ostream& out) {
  const Identity& v = current();
  out << "# " << v.describe() << "\n";
  const ChapterCases* chapter = registered();
  if (chapter == nullptr) return 0;
  for (const GradedCase& c : chapter->cases(v)) {
    out << field(c.check) << '\t' << field(c.text) << '\t' << field(c.declaration) << '\t'
        << field(c.condition) << '\t' << (c.answer ? std::to_string(c.answer()) : std::string())
        << '\n';
  }
  return 0;
}

std::string graded_on_text() {
  const Identity& v = current();
  std::string text = "Graded on " + v.describe() + ".\n";
  if (const ChapterCases* chapter = registered()) {
    const std::string summary = chapter->summary(v);
    if (!summary.empty()) text += summary + (summary.back() == '\n' ? "" : "\n");
  }
  return text;
}

}  // namespace grader::variant
