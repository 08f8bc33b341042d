// Chapter 10 host checks: the swizzle function against digests of the right values, the chosen
// swizzles against their properties, the ldmatrix predictions against the bank model on the
// tiles as your own functions lay them out.
#include <optional>
#include <string>
#include <vector>

#include "chapters/10_ldmatrix_swizzle/ldmatrix_swizzle.cuh"
#include "common/model/bank_model.hpp"
#include "grader/10_ldmatrix_swizzle/answer_cases.hpp"
#include "grader/10_ldmatrix_swizzle/feed_spec.hpp"
#include "grader/harness/chapter.hpp"
#include "grader/harness/feedback.hpp"
#include "grader/harness/prediction_check.hpp"
#include "grader/harness/variant.hpp"

namespace {

using ch10::spec::SwizzleCase;

std::string bits(int from, int to) {
  return from == to ? "bit " + std::to_string(from)
                    : "bits " + std::to_string(from) + " .. " + std::to_string(to);
}

// What exercise 1's swizzle misses on case `c`, named from the slip its digest matches or from
// the first property its values break. Only the student's own values are shown.
std::string principle_of(const SwizzleCase& c, const std::string& slip) {
  const int b = c.b, m = c.m, s = c.s, period = 1 << (b + m + s);
  const auto value = [&](int o) { return ch10::swizzle(b, m, s, o); };
  const auto at = [&](int o) {
    return ch10::spec::call_of(c, std::to_string(o)) + " is " + std::to_string(value(o));
  };
  if (slip == "other_way") {
    return "That is the XOR the other way round: the column bits (" + bits(m, m + b - 1) +
           ") XORed into the row bits above them. A swizzle changes the column bits, as the "
           "row bits say, and keeps the row bits.";
  }
  if (slip == "row_bits_at_s") {
    return "Those are the column bits XORed with " + bits(s, s + b - 1) +
           ". The row bits sit S positions above the column bits, which start at bit M: they "
           "are " +
           bits(m + s, m + s + b - 1) + ".";
  }
  const int offsets = ch10::spec::offsets_of(c);
  bool identity = true;
  for (int o = 0; o < offsets && identity; ++o) identity = value(o) == o;
  if (identity) {
    return "It returns every offset unchanged: only B = 0 is the identity. With B = " +
           std::to_string(b) + " the column bits change wherever the row bits are not all 0.";
  }
  const int low = (1 << m) - 1, column = ((1 << b) - 1) << m;
  for (int o = 0; o < offsets; ++o) {
    const int changed = value(o) ^ o;
    if (b == 0 && changed != 0) {
      return at(o) + ". With B = 0 no bit is XORed: the swizzle is the identity.";
    }
    for (int i = 0; i < 31; ++i) {
      if (!((changed >> i) & 1)) continue;
      if ((low >> i) & 1) {
        return at(o) + ": it changes bit " + std::to_string(i) +
               ", one of the M = " + std::to_string(m) + " low bits, which a swizzle keeps.";
      }
      if (!((column >> i) & 1)) {
        return at(o) + ": it changes bit " + std::to_string(i) + ", but only the B column bits (" +
               bits(m, m + b - 1) + ") may change.";
      }
    }
  }
  for (int o = 0; o + period < offsets; ++o) {
    if (value(o + period) != value(o) + period) {
      return ch10::spec::call_of(c, std::to_string(o + period)) + " is not " +
             ch10::spec::call_of(c, std::to_string(o)) + " + " + std::to_string(period) +
             ": the result depends on bits above " + std::to_string(m + s + b - 1) +
             ", which a swizzle carries along unchanged (it repeats every 2^(B+M+S)).";
    }
  }
  for (int start = 0; start < offsets; start += period) {
    std::vector<int> first(static_cast<size_t>(period), -1);
    for (int o = start; o < start + period; ++o) {
      const int to = value(o) - start;
      if (to < 0 || to >= period) break;  // reported by the properties above
      if (first[static_cast<size_t>(to)] >= 0) {
        return ch10::spec::call_of(c, std::to_string(first[static_cast<size_t>(to)])) + " and " +
               ch10::spec::call_of(c, std::to_string(o)) + " are both " + std::to_string(value(o)) +
               ": two offsets on one place, so it is not a bijection.";
      }
      first[static_cast<size_t>(to)] = o;
    }
  }
  return "The column bits (" + bits(m, m + b - 1) +
         ") are XORed with other bits than the row "
         "bits, " +
         bits(m + s, m + s + b - 1) + ".";
}

// Parameters exercise 2a's checks can use at all.
bool valid(const ch10::SwizzleParams& p) {
  return p.b >= 0 && p.m >= 0 && p.s >= 0 && p.b <= p.s && p.b + p.m + p.s <= 20;
}

// What exercise 2b's kSwizzled prediction waits for, or nothing when its tile can be laid out.
std::optional<std::string> swizzled_tile_not_ready(int row_bytes) {
  if (!ch10::spec::swizzle_right()) return std::string("exercise 1 (swizzle)");
  if (ch10::spec::chosen_swizzle_problem(row_bytes)) {
    return ch10::spec::chosen_call(row_bytes) + " (exercise 2a)";
  }
  return std::nullopt;
}

}  // namespace

WORKBOOK_CHECK(ex1) {
  const std::vector<SwizzleCase> cases = ch10::spec::swizzle_cases();
  const auto [wrong, first, slip] = grader::first_wrong(cases, ch10::spec::swizzle_match);
  if (wrong == 0) {
    SUCCEED();
    return;
  }
  grader::Feedback f(ch10::spec::call_of(first) + " is not Swizzle<" + std::to_string(first.b) +
                     ", " + std::to_string(first.m) + ", " + std::to_string(first.s) +
                     "> on every offset below " + std::to_string(ch10::spec::offsets_of(first)) +
                     ".");
  f.line(std::to_string(wrong) + " of the " + std::to_string(cases.size()) +
         " parameter sets tried (B <= 3, M <= 4, B <= S <= 4) are wrong; this is the first.");
  f.line(principle_of(first, slip));
  f.hint(
      "keep the low M bits; XOR bits M + S .. M + S + B - 1 into bits M .. M + B - 1; keep the "
      "rest.");
  GRADER_FAIL(f);
}

WORKBOOK_CHECK(ex2a) {
  for (int row_bytes : ch10::spec::swizzle_widths_drawn()) {
    const ch10::SwizzleParams p = ch10::chosen_swizzle(row_bytes);
    // The tile is laid out through your own swizzle, so that must be right first.
    if (valid(p) && !ch10::spec::swizzle_right()) {
      GRADER_EXPECT(false, grader::Feedback(ch10::spec::chosen_call(row_bytes) +
                                            " is checked once exercise 1 (swizzle) is right.")
                               .hint("the grader lays the tile out through your own swizzle: see "
                                     "exercise 1's check above."));
      continue;
    }
    const auto problem = ch10::spec::chosen_swizzle_problem(row_bytes);
    GRADER_EXPECT(!problem, *problem);
  }
}

WORKBOOK_CHECK(ex2b) {
  const grader::variant::Identity& v = grader::variant::current();
  // Your variant's cases, then fresh ones each run draws: a rule passes, a table does not.
  std::vector<ch10::spec::LdmatrixCase> cases = ch10::spec::ldmatrix_cases(v);
  const std::size_t variant_cases = cases.size();
  for (const auto& c : ch10::spec::fresh_ldmatrix_cases(cases)) cases.push_back(c);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ch10::spec::LdmatrixCase& asked = cases[i];
    const int row_bytes = asked.row_bytes;
    const ch10::Layout layout = asked.layout;
    const std::string call = "predicted_ldmatrix_wavefronts(" + std::to_string(row_bytes) + ", " +
                             ch10::spec::name(layout) + ")";
    const int predicted = ch10::predicted_ldmatrix_wavefronts(row_bytes, layout);
    if (predicted == ch10::kNotImplemented && i >= variant_cases) {
      GRADER_FAIL(grader::Feedback(call + " returns kNotImplemented for a fresh case: " +
                                   ch10::spec::case_words(asked) + ".")
                      .hint("write the rule, for any row width: the grader asks fresh ones."));
    }
    if (predicted == ch10::kNotImplemented) {
      GRADER_EXPECT(false, grader::unfilled_prediction(call));
      continue;
    }
    // The swizzled tile is yours: the grader asks the bank model about it through your
    // swizzle and chosen_swizzle, once they are right.
    ch10::SwizzleParams p;
    if (layout == ch10::Layout::kSwizzled) {
      if (const auto waits = swizzled_tile_not_ready(row_bytes)) {
        GRADER_EXPECT(false, grader::Feedback(call + " is checked once " + *waits + " is right.")
                                 .hint("the grader lays the swizzled tile out with your own "
                                       "functions; see their checks above."));
        continue;
      }
      p = ch10::chosen_swizzle(row_bytes);
    }
    const smem::WarpRequest r =
        ch10::spec::ldmatrix_x4(row_bytes, layout, p, asked.r0, asked.c, ch10::swizzle);
    const int model = smem::analyze(r).wavefronts;
    if (predicted == model) {
      SUCCEED();
      continue;
    }
    std::string principle;
    if (i >= variant_cases) {
      principle = "A fresh case: " + ch10::spec::case_words(asked) + ".";
    } else if (!v.self_study()) {
      principle = "Your variant's case: " + ch10::spec::case_words(asked) + ".";
    }
    if (layout == ch10::Layout::kSwizzled) {
      // The interface's kSwizzled is the student's own choice, so the model counts that tile.
      principle += std::string(principle.empty() ? "" : " ") +
                   "The bank model counted the tile your own swizzle lays out with " +
                   ch10::spec::chosen_call(row_bytes) + " = {" + std::to_string(p.b) + ", " +
                   std::to_string(p.m) + ", " + std::to_string(p.s) + "}.";
    }
    if (row_bytes < 128 && layout == ch10::Layout::kPlain &&
        predicted == smem::analyze(ch10::spec::ldmatrix_x4(128, layout, p, 0, 0, ch10::swizzle))
                         .wavefronts) {
      principle += std::string(principle.empty() ? "" : " ") + "That is what 128-byte rows cost. " +
                   (row_bytes == 64 ? "Two 64-byte rows share one 128-byte line"
                                    : "Rows shorter than 128 bytes share 128-byte lines") +
                   ": where do the 8 rows of one matrix fall?";
    }
    GRADER_EXPECT(false, grader::prediction_feedback(
                             call, predicted, model, ch10::kNotImplemented, r, principle,
                             "ldmatrix.x4 is four matrices of 8 row addresses each, served one "
                             "matrix at a time; count the distinct 16-byte chunks per bank "
                             "quad in each."));
    if (i >= variant_cases) break;  // one wrong fresh case says enough
  }
}

WORKBOOK_CHECK(ex3a) {
  ch10::feed::Placement place;
  if (const auto fault = ch10::feed::fill_copy_fault(&place)) {
    GRADER_FAIL(grader::Feedback(fault->fact + ".").reveal(fault->reveal).hint(fault->hint));
  }
  // Every warp's cp.async of a copy takes one wavefront per 128-byte line of A or B it reads
  // (4), on the bank model's cp.async rule (measured on the H200): the first one that does not.
  for (int i = 0; i < ch10::feed::kCopies; ++i) {
    for (int w = 0; w < ch10::kTcThreads / 32; ++w) {
      const smem::WarpRequest r = ch10::feed::fill_request(w, i);
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts == a.ideal) continue;
      GRADER_FAIL(
          grader::Feedback("Warp " + std::to_string(w) + "'s cp.async of copy " +
                           std::to_string(i) + " takes " + grader::wavefronts(a.wavefronts) +
                           " where its 4 lines of A need 4 (one per 128-byte line read).")
              .line("cp.async writes one 128-byte line of global memory into one 128-byte line "
                    "of shared memory per wavefront, its 16-byte chunks permuted by an XOR (and "
                    "by whole 32-byte sectors); a row that starts off a shared line, or whose "
                    "chunks are rotated by one, splits into several (section 3).")
              .picture(grader::draw(r))
              .hint("keep each row's 8 chunks in one 128-byte shared line, permuted by an XOR: "
                    "a swizzle, not padding."));
    }
  }
  SUCCEED();
}

WORKBOOK_CHECK(ex3b) {
  ch10::feed::Placement place;
  if (const auto fault = ch10::feed::fill_copy_fault(&place)) {
    GRADER_FAIL(grader::Feedback("Not checked: " + fault->fact + ".")
                    .hint("fragment_offset reads where fill_copy puts the chunks: make the check "
                          "of exercise 3a pass first."));
  }
  if (const auto fault = ch10::feed::fragment_fault(place)) {
    GRADER_FAIL(grader::Feedback(fault->fact + ".").reveal(fault->reveal).hint(fault->hint));
  }
  for (int row0 = 0; row0 < ch10::kTcBlock; row0 += 16) {
    for (int kk = 0; kk < ch10::kTcKStep / 16; ++kk) {
      const smem::WarpRequest r = ch10::feed::fragment_request(row0, kk);
      const smem::Analysis a = smem::analyze(r);
      if (a.wavefronts == a.ideal) continue;
      GRADER_FAIL(grader::Feedback("The ldmatrix.x4 of rows " + std::to_string(row0) + " .. " +
                                   std::to_string(row0 + 15) + ", halves " +
                                   std::to_string(16 * kk) + " .. " + std::to_string(16 * kk + 15) +
                                   " takes " + grader::wavefronts(a.wavefronts) +
                                   ", where 4 matrices need 4.")
                      .picture(grader::draw(r))
                      .hint("the 8 rows of each matrix must sit in 8 different bank quads: the "
                            "layout of exercise 3a decides it."));
    }
  }
  SUCCEED();
}
