#include "common/model/lane_expression.hpp"

#include <cctype>
#include <limits>

namespace smem {

ExpressionError::ExpressionError(const std::string& message, std::string text, std::size_t position)
    : std::runtime_error(message + " at position " + std::to_string(position + 1)),
      text_(std::move(text)),
      position_(position) {}

std::string ExpressionError::pointer() const {
  return "  " + text_ + "\n  " + std::string(position_, ' ') + "^";
}

namespace {

constexpr std::size_t kMaxLength = 4096;
constexpr int kMaxDepth = 256;

class Parser {
 public:
  Parser(const std::string& text, std::vector<LaneExpression::Node>& nodes)
      : text_(text), nodes_(nodes) {}

  int parse_all() {
    const int root = parse_binary(0);
    skip_blanks();
    if (pos_ < text_.size()) {
      if (text_[pos_] == ')') fail("')' without a matching '('");
      fail(std::string("unexpected '") + text_[pos_] +
           "' after a complete expression (an operator missing?)");
    }
    return root;
  }

 private:
  // Binary levels, loosest first: | ^ & shifts sums products.
  static constexpr int kLevels = 6;

  [[noreturn]] void fail(const std::string& message) { fail_at(message, pos_); }
  [[noreturn]] void fail_at(const std::string& message, std::size_t at) {
    throw ExpressionError(message, text_, at);
  }

  void skip_blanks() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // The operator at the current position if it belongs to `level`, else 0.
  char operator_at(int level) {
    skip_blanks();
    if (pos_ >= text_.size()) return 0;
    const char c = text_[pos_];
    const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    switch (level) {
      case 0: return c == '|' ? c : 0;
      case 1: return c == '^' ? c : 0;
      case 2: return c == '&' ? c : 0;
      case 3:
        if (c == '<' && next == '<') return '<';
        if (c == '>' && next == '>') return '>';
        if ((c == '<' || c == '>') && next != c)
          fail(std::string("'") + c + "' alone; write " + c + c);
        return 0;
      case 4: return c == '+' || c == '-' ? c : 0;
      default: return c == '*' || c == '/' || c == '%' ? c : 0;
    }
  }

  int add(LaneExpression::Node node) {
    nodes_.push_back(node);
    return static_cast<int>(nodes_.size()) - 1;
  }

  int parse_binary(int level) {
    if (level == kLevels) return parse_unary();
    int left = parse_binary(level + 1);
    while (const char op = operator_at(level)) {
      const std::size_t at = pos_;
      pos_ += (op == '<' || op == '>') ? 2 : 1;
      const int right = parse_binary(level + 1);
      left = add({op, 0, left, right, at});
    }
    return left;
  }

  int parse_unary() {
    skip_blanks();
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      const std::size_t at = pos_;
      const bool negate = text_[pos_] == '-';
      ++pos_;
      if (++depth_ > kMaxDepth) fail_at("nested too deeply", at);
      const int operand = parse_unary();
      --depth_;
      return negate ? add({'u', 0, operand, -1, at}) : operand;
    }
    return parse_atom();
  }

  int parse_atom() {
    skip_blanks();
    if (pos_ >= text_.size()) {
      fail(text_.empty() || text_.find_first_not_of(" \t") == std::string::npos
               ? "the expression is empty"
               : "the expression ends where a number, t or '(' was expected");
    }
    const char c = text_[pos_];
    const std::size_t at = pos_;
    if (c == '(') {
      if (++depth_ > kMaxDepth) fail("nested too deeply (more than 256 parentheses)");
      ++pos_;
      const int inner = parse_binary(0);
      skip_blanks();
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        if (pos_ < text_.size()) fail(std::string("expected ')' but found '") + text_[pos_] + "'");
        fail_at("'(' is never closed", at);
      }
      ++pos_;
      --depth_;
      return inner;
    }
    if (c == 't') {
      ++pos_;
      if (pos_ < text_.size() &&
          (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        fail_at("unknown name; the only variable is t (the lane index)", at);
      }
      return add({'t', 0, -1, -1, at});
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      fail("unknown name; the only variable is t (the lane index)");
    }
    if (c == ')') fail("')' where a number, t or '(' was expected");
    fail(std::string("unexpected '") + c + "' where a number, t or '(' was expected");
  }

  int parse_number() {
    const std::size_t at = pos_;
    int base = 10;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
      base = 16;
      pos_ += 2;
      if (pos_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
        fail_at("'0x' without hexadecimal digits", at);
      }
    }
    std::int64_t value = 0;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) {
      const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
      const int digit = std::isdigit(static_cast<unsigned char>(d)) ? d - '0'
                        : (base == 16 && d >= 'a' && d <= 'f')      ? d - 'a' + 10
                                                                    : -1;
      if (digit < 0) fail(std::string("'") + text_[pos_] + "' is not a digit of this number");
      if (value > (std::numeric_limits<std::int64_t>::max() - digit) / base) {
        fail_at("number too large for 64 bits", at);
      }
      value = value * base + digit;
      ++pos_;
    }
    return add({'n', value, -1, -1, at});
  }

  const std::string& text_;
  std::vector<LaneExpression::Node>& nodes_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

LaneExpression LaneExpression::parse(const std::string& text) {
  if (text.size() > kMaxLength) {
    throw ExpressionError("the expression is longer than 4096 characters",
                          text.substr(0, 60) + "...", 60);
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t') || c >= 0x7f) {
      std::string shown = text;  // keep the caret line printable
      for (char& ch : shown) {
        const unsigned char u = static_cast<unsigned char>(ch);
        if ((u < 0x20 && u != '\t') || u >= 0x7f) ch = '?';
      }
      throw ExpressionError(c >= 0x7f ? "character outside ASCII" : "control character", shown, i);
    }
  }
  LaneExpression e;
  e.text_ = text;
  Parser parser(e.text_, e.nodes_);
  e.root_ = parser.parse_all();
  return e;
}

std::int64_t LaneExpression::evaluate(std::int64_t t) const {
  return evaluate_node(root_, t);
}

std::int64_t LaneExpression::evaluate_node(int index, std::int64_t t) const {
  const Node& n = nodes_[static_cast<std::size_t>(index)];
  if (n.op == 'n') return n.value;
  if (n.op == 't') return t;
  const std::string lane = " for lane t = " + std::to_string(t);
  auto fail = [&](const std::string& what) -> std::int64_t {
    throw ExpressionError(what + lane, text_, n.position);
  };
  const std::int64_t a = evaluate_node(n.left, t);
  std::int64_t r = 0;
  if (n.op == 'u') {
    if (__builtin_sub_overflow(std::int64_t{0}, a, &r)) return fail("overflow");
    return r;
  }
  const std::int64_t b = evaluate_node(n.right, t);
  switch (n.op) {
    case '+':
      if (__builtin_add_overflow(a, b, &r)) return fail("overflow in +");
      return r;
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) return fail("overflow in -");
      return r;
    case '*':
      if (__builtin_mul_overflow(a, b, &r)) return fail("overflow in *");
      return r;
    case '/':
    case '%':
      if (b == 0) return fail(std::string("division by zero in ") + n.op);
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return fail("overflow");
      return n.op == '/' ? a / b : a % b;
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '<':
    case '>':
      if (b < 0 || b > 62) return fail("shift by " + std::to_string(b) + " (allowed: 0 to 62)");
      if (n.op == '>') return a >> b;
      if (a < 0) return fail("<< of a negative number (" + std::to_string(a) + ")");
      if (a > (std::numeric_limits<std::int64_t>::max() >> b)) return fail("overflow in <<");
      return a << b;
    default: return fail("internal error: unknown operator");
  }
}

}  // namespace smem
