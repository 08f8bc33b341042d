#include "grader/harness/record.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grader::record {

namespace {

using report::Check;
using report::Outcome;
using Kind = FeedbackPart::Kind;

constexpr const char* kKinds[] = {"line", "picture", "hint", "note"};
constexpr const char* kOutcomes[] = {"passed", "failed", "skipped"};

// `text` as a JSON string: quotes, backslashes and control characters escaped, other bytes as
// they are (the record's readers take a byte that is not UTF-8 for U+FFFD).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += std::string("\\") + c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string check_fields(const Check& c) {
  std::string parts;
  for (const FeedbackPart& p : c.first.parts) {
    parts += std::string(parts.empty() ? "" : ", ") + "{\"kind\": \"" +
             kKinds[static_cast<int>(p.kind)] + "\", \"text\": " + quoted(p.text) + "}";
  }
  return "{\"check\": " + quoted(c.name) + ", \"outcome\": \"" +
         kOutcomes[static_cast<int>(c.outcome)] + "\", \"skip_reason\": " + quoted(c.skip_reason) +
         ", \"failures\": " + std::to_string(c.failures) +
         ", \"headline\": " + quoted(c.first.headline) + ", \"parts\": [" + parts +
         "], \"what_to_do\": " + quoted(c.first.what_to_do) +
         ", \"ended_run\": " + (c.ended_run ? "true" : "false") + "}";
}

// A JSON value of a record's line.
struct Value {
  std::string text;  // a string's text, a number's or a literal's spelling
  bool is_string = false;
  std::vector<Value> items;                            // an array's
  std::vector<std::pair<std::string, Value>> members;  // an object's
  bool is_object = false;

  const Value& operator[](const std::string& key) const {
    static const Value none;
    for (const auto& [name, value] : members) {
      if (name == key) return value;
    }
    return none;
  }
};

// Reads one JSON value of a line (what Python's json module reads; the record's own reader in
// grader/tools/record.py holds each line to its fields).
class Parser {
 public:
  explicit Parser(const std::string& line) : s_(line) {}
  Value line() {
    Value v = value();
    blanks();
    if (at_ < s_.size()) fail();
    return v;
  }

 private:
  [[noreturn]] void fail() { throw std::runtime_error("not JSON at byte " + std::to_string(at_)); }
  void blanks() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\r')) ++at_;
  }
  bool take(char c) {
    blanks();
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }
  Value value() {
    Value v;
    if (take('{')) {
      v.is_object = true;
      while (!take('}')) {
        if (!v.members.empty() && !take(',')) fail();
        Value key = value();
        if (!key.is_string || !take(':')) fail();
        v.members.emplace_back(key.text, value());
      }
    } else if (take('[')) {
      while (!take(']')) {
        if (!v.items.empty() && !take(',')) fail();
        v.items.push_back(value());
      }
    } else if (take('"')) {
      v.is_string = true;
      v.text = string();
    } else {
      while (at_ < s_.size() && std::string(",]} \t\r").find(s_[at_]) == std::string::npos) {
        v.text += s_[at_++];
      }
      if (v.text.empty()) fail();
    }
    return v;
  }
  std::string string() {
    std::string out;
    for (char c; (c = next()) != '"';) {
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = next();
      const std::string plain = "\"\\/bfnrt", meant = "\"\\/\b\f\n\r\t";
      if (plain.find(e) != std::string::npos) {
        out += meant[plain.find(e)];
        continue;
      }
      const std::string digits = e == 'u' && at_ + 4 <= s_.size() ? s_.substr(at_, 4) : "";
      if (digits.size() != 4 || digits.find_first_not_of("0123456789abcdefABCDEF") != npos) fail();
      at_ += 4;
      // As UTF-8 (a surrogate's half as it is: the reader of the output takes it for U+FFFD).
      const unsigned code = static_cast<unsigned>(std::stoul(digits, nullptr, 16));
      const int extra = code < 0x80 ? 0 : code < 0x800 ? 1 : 2;
      out += static_cast<char>(extra == 0 ? code : (0xFF00 >> (extra + 1)) | (code >> (6 * extra)));
      for (int k = extra - 1; k >= 0; --k)
        out += static_cast<char>(0x80 | ((code >> (6 * k)) & 0x3F));
    }
    return out;
  }
  char next() {
    if (at_ >= s_.size()) fail();
    return s_[at_++];
  }
  static constexpr std::size_t npos = std::string::npos;

  const std::string& s_;
  std::size_t at_ = 0;
};

template <std::size_t N>
int index_of(const std::string& name, const char* const (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<int>(i);
  }
  throw std::runtime_error("no such value: " + name);
}

Check check_of(const Value& v) {
  Check c;
  c.name = v["check"].text;
  c.outcome = static_cast<Outcome>(index_of(v["outcome"].text, kOutcomes));
  c.skip_reason = v["skip_reason"].text;
  c.failures = std::stoi(v["failures"].text);
  c.first.headline = v["headline"].text;
  for (const Value& part : v["parts"].items) {
    c.first.parts.push_back(
        {static_cast<Kind>(index_of(part["kind"].text, kKinds)), part["text"].text});
  }
  c.first.what_to_do = v["what_to_do"].text;
  c.ended_run = v["ended_run"].text == "true";
  return c;
}

}  // namespace

std::string header_line(const report::Run& run) {
  std::string setting;
  for (const std::string& line : run.setting) {
    setting += (setting.empty() ? "" : ", ") + quoted(line);
  }
  return "{\"record\": 1, \"chapter\": " + quoted(run.chapter) + ", \"mode\": " + quoted(run.mode) +
         ", \"variant\": " + quoted(run.variant) + ", \"cases\": " + quoted(run.cases) +
         ", \"setting\": [" + setting + "], \"details\": " + quoted(run.details_path) +
         ", \"details_missing\": " + quoted(run.details_missing) + "}\n";
}

std::string setting_line(const std::string& setting) {
  return "{\"setting\": " + quoted(setting) + "}\n";
}

std::string check_line(const Check& check) {
  return check_fields(check) + "\n";
}

std::string end_line(const std::string& how, const Check* stopped) {
  return "{\"end\": " + quoted(how) +
         (stopped ? ", \"stopped\": " + check_fields(*stopped) : std::string()) + "}\n";
}

report::Run read(std::istream& in) {
  report::Run run;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (in.eof()) break;  // a last line without its line break was cut short: not read
    try {
      const Value v = Parser(line).line();
      if (!v.is_object) throw std::runtime_error("not an object");
      if (number == 1) {
        if (v["record"].text != "1") throw std::runtime_error("not a record's first line");
        run.chapter = v["chapter"].text;
        run.mode = v["mode"].text;
        run.variant = v["variant"].text;
        run.cases = v["cases"].text;
        for (const Value& s : v["setting"].items) run.setting.push_back(s.text);
        run.details_path = v["details"].text;
        run.details_missing = v["details_missing"].text;
      } else if (v["setting"].is_string) {
        run.setting.push_back(v["setting"].text);
      } else if (v["check"].is_string) {
        run.checks.push_back(check_of(v));
      } else if (v["end"].is_string) {
        if (v["stopped"].is_object) run.checks.push_back(check_of(v["stopped"]));
      } else {
        throw std::runtime_error("not a line of a record");
      }
    } catch (const std::exception& e) {
      throw std::runtime_error("line " + std::to_string(number) + " of the record: " + e.what());
    }
  }
  return run;
}

}  // namespace grader::record

namespace grader::report {

// The run being recorded: what the listener (grader_listener.cpp) reports of each check.
void Recorder::start(const std::string& name) {
  run_.checks.push_back(Check{});
  run_.checks.back().name = name;
  running_ = true;
  has_pending_ = false;
}

void Recorder::attach(const Feedback& feedback) {
  pending_ = Failure{feedback.headline(), feedback.shown_parts(), ""};
  has_pending_ = true;
}

void Recorder::fail(const std::string& message, const std::vector<std::string>& context) {
  const bool attached = has_pending_ && pending_.headline == message;
  has_pending_ = false;
  if (!running_ || run_.checks.empty()) return;
  Check& c = run_.checks.back();
  if (c.failures++ > 0) return;
  c.outcome = Outcome::kFailed;
  c.first = attached ? pending_ : Failure{message, {}, ""};
  std::vector<FeedbackPart> lines;
  for (const std::string& line : context) lines.push_back({FeedbackPart::Kind::kLine, line});
  c.first.parts.insert(c.first.parts.begin(), lines.begin(), lines.end());
}

void Recorder::skip(const std::string& reason) {
  if (!running_ || run_.checks.empty()) return;
  Check& c = run_.checks.back();
  if (c.outcome != Outcome::kFailed) c.outcome = Outcome::kSkipped;
  if (c.skip_reason.empty()) c.skip_reason = reason;
}

void Recorder::stop(const std::string& headline, const std::string& what_to_do) {
  if (!running_ || run_.checks.empty()) {
    // Between checks: the stop is told as a check of its own, after the last one.
    start("(the grader, after its last check)");
  }
  Check& c = run_.checks.back();
  c.outcome = Outcome::kFailed;
  c.ended_run = true;
  c.first = Failure{headline, {}, what_to_do};
  ++c.failures;
  running_ = false;
}

bool Recorder::advise(const std::string& text, const std::string& what_to_do) {
  for (Check& c : run_.checks) {
    if (c.outcome == Outcome::kFailed && c.first.what_to_do.empty() &&
        c.first.headline.find(text) != std::string::npos) {
      c.first.what_to_do = what_to_do;
      return true;
    }
  }
  return false;
}

Recorder& recorder() {
  static Recorder the_run;
  return the_run;
}

void attach_to_next_failure(const Feedback& feedback) {
  recorder().attach(feedback);
}

}  // namespace grader::report
