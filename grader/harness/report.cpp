#include "grader/harness/report.hpp"

#include <algorithm>
#include <cstddef>
#include <set>

namespace grader::report {

namespace {

// Rows of the report for a further failed check's lines (its headline, hint and count aside).
constexpr std::size_t kBriefLineRows = 4;

bool continues_character(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The byte length of the first `characters` characters of `text`.
std::size_t bytes_of_first(const std::string& text, std::size_t characters) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < text.size(); ++i) {
    if (!continues_character(text[i]) && seen++ == characters) break;
  }
  return i;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < line.size()) {
    const std::size_t end = line.find(' ', start);
    const std::size_t stop = end == std::string::npos ? line.size() : end;
    if (stop > start) words.push_back(line.substr(start, stop - start));
    start = stop + 1;
  }
  return words;
}

std::string trimmed_right(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// The text with every run of blanks and line breaks as one space: how hints are told apart.
std::string collapsed(const std::string& text) {
  std::string out;
  for (const std::string& line : split_lines(text)) {
    for (const std::string& word : split_words(line)) out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

std::string count_of(int n, const std::string& thing) {
  return std::to_string(n) + " " + thing + (n == 1 ? "" : "s");
}

std::string mode_words(const std::string& mode) {
  return mode == "gpu" ? "GPU" : mode;
}

struct Counts {
  int passed = 0, failed = 0, skipped = 0, total = 0;
};

Counts count(const Run& run) {
  Counts n;
  for (const Check& c : run.checks) {
    n.failed += c.outcome == Outcome::kFailed;
    n.skipped += c.outcome == Outcome::kSkipped;
    n.passed += c.outcome == Outcome::kPassed;
  }
  n.total = static_cast<int>(run.checks.size());
  return n;
}

// The first line: whose checks, and how they ended.
std::string header(const Run& run, bool stopped) {
  const Counts n = count(run);
  std::string status;
  if (n.total == 0) {
    status = "no check ran";
  } else if (n.failed > 0) {
    status = std::to_string(n.failed) + " of " + count_of(n.total, "check") + " failed";
    if (n.skipped > 0) status += ", " + std::to_string(n.skipped) + " skipped";
  } else if (n.skipped > 0) {
    status = std::to_string(n.passed) + " of " + count_of(n.total, "check") + " passed, " +
             std::to_string(n.skipped) + " skipped";
  } else {
    status = n.total == 1 ? "its 1 check passed" : "all " + count_of(n.total, "check") + " passed";
  }
  if (stopped) status += "; the grader stopped early";
  return run.chapter + " " + mode_words(run.mode) + " checks, " + run.variant + ": " + status + ".";
}

// Rows being laid out, `columns` wide.
struct Rows {
  std::size_t columns;
  std::vector<std::string> all;
  void add(const std::vector<std::string>& more) {
    all.insert(all.end(), more.begin(), more.end());
  }
  void add(const std::string& text, const std::string& first, const std::string& next) {
    add(wrap(text, columns, first, next));
  }
};

std::vector<std::string> line_rows(const FeedbackPart& part, std::size_t columns) {
  if (part.kind == FeedbackPart::Kind::kNote)
    return wrap("(" + part.text + ")", columns, "  ", "   ");
  return wrap(part.text, columns, "  ", "    ");
}

std::vector<std::string> hint_rows(const std::string& hint, std::size_t columns) {
  return wrap("Hint: " + hint, columns, "  ", "        ");
}

std::vector<std::string> advice_rows(const std::string& what_to_do, std::size_t columns) {
  return wrap("What to do: " + what_to_do, columns, "  ", "              ");
}

std::vector<std::string> family_rows(const Check& c, std::size_t columns) {
  if (c.failures <= 1) return {};
  return wrap("+ " + std::to_string(c.failures - 1) + " more failed case" +
                  (c.failures == 2 ? "" : "s") + " of this check.",
              columns, "  ", "    ");
}

bool fits(const std::string& picture, std::size_t columns) {
  for (const std::string& row : split_lines(picture)) {
    if (columns_of(row) > columns) return false;
  }
  return true;
}

// Adds as many of `rows` as `room` allows to `block`, taking them from `room`; false when some
// were left out.
bool take_rows(const std::vector<std::string>& rows, std::size_t& room, Rows& block) {
  const std::size_t take = std::min(rows.size(), room);
  block.add(
      std::vector<std::string>(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(take)));
  room -= take;
  return take == rows.size();
}

// The first failed check, in full as far as `rows_left` rows allow: its name, headline, hints,
// advice and count always; its lines in order while they fit, its pictures where they fit.
std::vector<std::string> first_block(const Check& c, std::size_t columns, std::size_t rows_left,
                                     std::set<std::string>& shown) {
  Rows block{columns, {}};
  block.add("FAILED " + c.name, "", "       ");
  block.add(c.first.headline, "  ", "    ");
  Rows closing{columns, {}};  // hints, advice, count
  for (const FeedbackPart& part : c.first.parts) {
    if (part.kind == FeedbackPart::Kind::kHint && shown.insert(collapsed(part.text)).second)
      closing.add(hint_rows(part.text, columns));
  }
  if (!c.first.what_to_do.empty()) closing.add(advice_rows(c.first.what_to_do, columns));
  closing.add(family_rows(c, columns));

  const std::size_t fixed = block.all.size() + closing.all.size();
  std::size_t budget = rows_left > fixed ? rows_left - fixed : 0;
  // Everything, where it all fits; else the lines in order and the pictures that fit, with a
  // row kept to say the rest is in the details.
  std::size_t wanted = 0;
  bool all_fit = true;
  for (const FeedbackPart& part : c.first.parts) {
    if (part.kind == FeedbackPart::Kind::kHint) continue;
    if (part.kind == FeedbackPart::Kind::kPicture) {
      all_fit = all_fit && fits(part.text, columns);
      wanted += split_lines(part.text).size();
    } else if (part.kind == FeedbackPart::Kind::kLine) {
      wanted += line_rows(part, columns).size();
    }
  }
  all_fit = all_fit && wanted <= budget;
  if (!all_fit && budget > 0) --budget;
  bool lines_cut = false, pictures_left = false;
  Rows notes{columns, {}};
  for (const FeedbackPart& part : c.first.parts) {
    if (part.kind == FeedbackPart::Kind::kHint) continue;
    if (part.kind == FeedbackPart::Kind::kNote) {
      if (shown.count(collapsed(part.text)) == 0) notes.add(line_rows(part, columns));
      continue;
    }
    if (part.kind == FeedbackPart::Kind::kPicture) {
      const std::vector<std::string> rows = split_lines(part.text);
      if (fits(part.text, columns) && rows.size() <= budget) {
        block.add(rows);
        budget -= rows.size();
      } else {
        pictures_left = true;
      }
      continue;
    }
    // Lines in order, the last one shown cut short where the room ends.
    if (!lines_cut) lines_cut = !take_rows(line_rows(part, columns), budget, block);
  }
  if (lines_cut) {
    block.add("(More of this failure is in the details file named at the end.)", "  ", "   ");
  } else if (pictures_left) {
    block.add("(Its picture is in the details file named at the end.)", "  ", "   ");
  }
  block.add(closing.all);
  // The note on how to see the answer, where the first screen has room for it.
  if (!notes.all.empty() && block.all.size() + notes.all.size() <= rows_left) {
    block.add(notes.all);
    for (const FeedbackPart& part : c.first.parts) {
      if (part.kind == FeedbackPart::Kind::kNote) shown.insert(collapsed(part.text));
    }
  }
  return block.all;
}

// A further failed check, in a few rows: its name, headline, first lines, a hint not shown
// before, its advice and count.
std::vector<std::string> brief_block(const Check& c, std::size_t columns,
                                     std::set<std::string>& shown) {
  Rows block{columns, {}};
  block.add("FAILED " + c.name, "", "       ");
  block.add(c.first.headline, "  ", "    ");
  std::size_t line_rows_left = kBriefLineRows;
  bool lines_cut = false;
  for (const FeedbackPart& part : c.first.parts) {
    if (part.kind == FeedbackPart::Kind::kLine && !lines_cut) {
      lines_cut = !take_rows(line_rows(part, columns), line_rows_left, block);
    }
  }
  if (lines_cut) block.add("(more in the details file)", "  ", "   ");
  for (const FeedbackPart& part : c.first.parts) {
    if (part.kind == FeedbackPart::Kind::kPicture || part.kind == FeedbackPart::Kind::kLine) {
      continue;
    }
    if (!shown.insert(collapsed(part.text)).second) continue;
    block.add(part.kind == FeedbackPart::Kind::kHint ? hint_rows(part.text, columns)
                                                     : line_rows(part, columns));
  }
  if (!c.first.what_to_do.empty()) block.add(advice_rows(c.first.what_to_do, columns));
  block.add(family_rows(c, columns));
  return block.all;
}

}  // namespace

std::size_t columns_of(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !continues_character(c); }));
}

std::vector<std::string> wrap(const std::string& text, std::size_t width, const std::string& first,
                              const std::string& next) {
  std::vector<std::string> rows;
  const std::vector<std::string> lines = split_lines(text);
  for (std::size_t l = 0; l < std::max<std::size_t>(lines.size(), 1); ++l) {
    std::string row = rows.empty() ? first : next;
    bool has_word = false;
    for (std::string word : split_words(l < lines.size() ? lines[l] : std::string())) {
      const std::string joined = row + (has_word ? " " : "") + word;
      if (columns_of(joined) <= width) {
        row = joined;
        has_word = true;
        continue;
      }
      if (has_word) {
        rows.push_back(row);
        row = next;
        has_word = false;
      }
      // A word longer than a row is cut where the row ends.
      while (columns_of(row) < width && columns_of(row) + columns_of(word) > width) {
        const std::size_t cut = bytes_of_first(word, width - columns_of(row));
        rows.push_back(row + word.substr(0, cut));
        word = word.substr(cut);
        row = next;
      }
      row += word;
      has_word = true;
    }
    rows.push_back(trimmed_right(row));
  }
  return rows;
}

std::vector<std::string> summary(const Run& run, bool reasons) {
  const auto first_line = [](const std::string& text) {
    const std::string line = text.substr(0, text.find('\n'));
    return line.size() > 150 ? line.substr(0, 147) + "..." : line;
  };
  std::vector<std::string> rows{"==== Summary (" + run.mode + " checks) ===="};
  for (const Check& c : run.checks) {
    const bool failed = c.outcome == Outcome::kFailed, skipped = c.outcome == Outcome::kSkipped;
    rows.push_back((failed ? "  FAILED   " : skipped ? "  skipped  " : "  passed   ") + c.name);
    if (reasons && failed) rows.push_back("           " + first_line(c.first.headline));
    if (reasons && skipped) rows.push_back("           why: " + first_line(c.skip_reason));
  }
  const Counts n = count(run);
  rows.push_back((n.total == 1 ? "1 check: " : std::to_string(n.total) + " checks: ") +
                 std::to_string(n.passed) + " passed, " + std::to_string(n.failed) + " failed, " +
                 std::to_string(n.skipped) + " skipped.");
  return rows;
}

std::string render(const Run& run, const Screen& screen) {
  const std::size_t columns = screen.columns;
  Rows out{columns, {}};

  const Check* stopped_in = nullptr;
  for (const Check& c : run.checks) {
    if (c.ended_run) stopped_in = &c;
  }
  out.add(header(run, stopped_in != nullptr), "", "  ");

  // The check the run stopped in comes first: the checks after it did not run.
  std::vector<const Check*> failed;
  if (stopped_in != nullptr && stopped_in->outcome == Outcome::kFailed)
    failed.push_back(stopped_in);
  for (const Check& c : run.checks) {
    if (c.outcome == Outcome::kFailed && &c != stopped_in) failed.push_back(&c);
  }
  std::set<std::string> shown;  // the hints and notes shown so far
  for (std::size_t i = 0; i < failed.size(); ++i) {
    out.all.push_back("");
    const std::size_t used = out.all.size();
    const std::vector<std::string> rows =
        i == 0
            ? first_block(*failed[i], columns, screen.rows > used ? screen.rows - used : 0, shown)
            : brief_block(*failed[i], columns, shown);
    out.add(rows);
  }

  // Skipped checks, those skipped for one reason together.
  std::vector<std::string> reasons;
  for (const Check& c : run.checks) {
    if (c.outcome == Outcome::kSkipped &&
        std::find(reasons.begin(), reasons.end(), c.skip_reason) == reasons.end()) {
      reasons.push_back(c.skip_reason);
    }
  }
  for (const std::string& reason : reasons) {
    out.all.push_back("");
    int named = 0, more = 0;
    for (const Check& c : run.checks) {
      if (c.outcome != Outcome::kSkipped || c.skip_reason != reason) continue;
      if (named < 2) {
        out.add("SKIPPED " + c.name, "", "        ");
        ++named;
      } else {
        ++more;
      }
    }
    if (more > 0) {
      out.add("+ " + count_of(more, "more check") + " skipped for the same reason", "  ", "    ");
    }
    out.add("why: " + reason, "  ", "       ");
  }

  // The run's setting (the GPU, the seed) and the variant's cases the checks above refer to.
  if (!run.setting.empty() || !run.cases.empty()) out.all.push_back("");
  for (const std::string& line : run.setting) out.add(line, "", "  ");
  for (const std::string& line : split_lines(run.cases)) {
    const std::string indent = line.substr(0, line.find_first_not_of(' '));
    out.add(line, indent, indent + "  ");
  }

  out.all.push_back("");
  out.add(summary(run, false));
  if (!run.details_path.empty()) {
    out.add("Every failure in full, with its pictures and anything your code printed:", "", "  ");
    out.all.push_back("  " + run.details_path);
  } else if (!run.details_missing.empty()) {
    out.add("Every failure in full follows (" + run.details_missing + ").", "", "  ");
  }

  std::string text;
  for (const std::string& row : out.all) text += row + "\n";
  return text;
}

}  // namespace grader::report
